"""The offline model's reading of a question: language, places, arithmetic, lesson numbers, words.

Plain regular expressions and word lists, on purpose: the offline model is a
stand-in that follows visible rules a learner can read, not a language model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

Language = Literal["zh", "en"]

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")

# Places the stand-in model "knows", as (Chinese name, English names). It knows more
# places than the weather tool has data for (and Mars), as a real model would: the
# tool, not the model, decides which cities have weather.
GAZETTEER: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("北京", ("Beijing", "Peking")),
    ("上海", ("Shanghai",)),
    ("广州", ("Guangzhou", "Canton")),
    ("深圳", ("Shenzhen",)),
    ("成都", ("Chengdu",)),
    ("哈尔滨", ("Harbin",)),
    ("杭州", ("Hangzhou",)),
    ("南京", ("Nanjing",)),
    ("武汉", ("Wuhan",)),
    ("西安", ("Xi'an", "Xian")),
    ("重庆", ("Chongqing",)),
    ("香港", ("Hong Kong",)),
    ("东京", ("Tokyo",)),
    ("首尔", ("Seoul",)),
    ("新加坡", ("Singapore",)),
    ("伦敦", ("London",)),
    ("巴黎", ("Paris",)),
    ("柏林", ("Berlin",)),
    ("纽约", ("New York",)),
    ("悉尼", ("Sydney",)),
    ("火星", ("Mars",)),
    ("月球", ("the Moon",)),
)

# Rooms of a home, for a parameter that asks which room ("Set the bedroom to 19 degrees").
ROOMS: tuple[str, ...] = (
    "living room", "dining room", "bedroom", "kitchen", "bathroom", "office", "garage", "hallway", "basement",
    "attic", "nursery", "客厅", "卧室", "主卧", "次卧", "厨房", "浴室", "卫生间", "书房", "餐厅", "车库",
)

# Currency words and the ISO codes they stand for ("dollars" -> USD, "人民币" -> CNY).
CURRENCY_CODES: dict[str, str] = {
    **dict.fromkeys("dollar dollars 美元 美金".split(), "USD"),
    **dict.fromkeys("euro euros 欧元".split(), "EUR"),
    **dict.fromkeys("pound pounds sterling 英镑".split(), "GBP"),
    **dict.fromkeys("yen 日元".split(), "JPY"),
    **dict.fromkeys("yuan renminbi rmb 人民币".split(), "CNY"),
    **dict.fromkeys("rupee rupees 卢比".split(), "INR"),
    **dict.fromkeys("franc francs 瑞郎".split(), "CHF"),
    **dict.fromkeys("韩元".split(), "KRW"),
}

# Common Chinese words of everyday requests and the English words a tool would use for them, so that a
# Chinese question finds a tool (and an enum value) described in English. A small bilingual word list, not
# a translator: a Chinese word missing here is not understood.
CHINESE_GLOSSARY: dict[str, tuple[str, ...]] = {
    # exercise and health
    "跑步": ("running", "run"), "慢跑": ("jogging", "running"), "骑车": ("cycling", "cycle", "bike", "biking"),
    "骑自行车": ("cycling", "cycle", "bike"), "自行车": ("bike", "bicycle", "cycling"),
    "游泳": ("swimming", "swim"), "走路": ("walking", "walk"), "步行": ("walking", "walk"),
    "散步": ("walking", "walk"), "徒步": ("hiking", "hike"), "瑜伽": ("yoga",), "运动": ("exercise", "workout"),
    "锻炼": ("exercise", "workout"), "卡路里": ("calories", "calorie"), "热量": ("calories", "calorie"),
    "消耗": ("burn", "burned"), "体重": ("weight",), "身高": ("height",), "步数": ("steps",),
    # food
    "辣": ("spicy", "hot"), "素食": ("vegetarian",), "点餐": ("order",),
    "食谱": ("recipe", "recipes"), "菜谱": ("recipe", "recipes"), "做法": ("recipe",), "餐厅": ("restaurant",),
    "饭店": ("restaurant",), "菜单": ("menu",), "外卖": ("delivery", "order"),
    # money
    "转账": ("transfer",), "汇款": ("transfer", "send"), "账户": ("account",), "余额": ("balance",),
    "贷款": ("loan",), "房贷": ("mortgage", "loan"), "利率": ("rate", "interest"), "利息": ("interest",),
    "月供": ("payment", "monthly"), "小费": ("tip",), "账单": ("bill",), "平分": ("split",), "分摊": ("split",),
    "付款": ("pay", "payment"), "支付": ("pay", "payment"), "发票": ("invoice",), "预算": ("budget",),
    "存款": ("deposit", "savings"), "投资": ("invest", "investment"),
    # shopping and shipping
    "订单": ("order",), "退款": ("refund",), "退货": ("return", "refund"), "取消": ("cancel",),
    "包裹": ("parcel", "package"), "快递": ("parcel", "package", "delivery"), "物流": ("shipping", "shipment"),
    "运费": ("shipping", "cost"), "邮寄": ("ship", "shipping", "send"), "追踪": ("track",), "跟踪": ("track",),
    "库存": ("stock", "inventory"), "价格": ("price",), "购物车": ("cart",),
    # library, books, music, media
    "续借": ("renew", "loan"), "借书": ("borrow", "loan", "book"), "还书": ("return", "book"),
    "图书": ("book", "books"), "图书馆": ("library",), "预约": ("reserve", "book"),
    "歌曲": ("song",), "歌": ("song",), "播放": ("play",), "歌单": ("playlist",), "播放列表": ("playlist",),
    "歌手": ("artist", "singer"), "电影": ("movie", "film"), "音量": ("volume",),
    # home
    "恒温器": ("thermostat",), "亮度": ("brightness",), "调暗": ("dim", "brightness"),
    "调亮": ("brightness",), "空调": ("thermostat", "air"), "门锁": ("lock", "door"),
    "窗帘": ("curtain", "blinds"), "插座": ("plug", "outlet"),
    # work and calendar
    "请假": ("leave",), "休假": ("leave", "vacation"), "年假": ("vacation", "leave"), "病假": ("sick", "leave"),
    "会议室": ("room", "meeting"), "预订": ("book", "reserve", "booking"),
    "日历": ("calendar", "event"), "员工": ("employee",), "任务": ("task", "todo"), "待办": ("todo", "task"),
    "笔记": ("note",), "文件": ("file",), "密码": ("password",), "生成": ("generate",),
    # languages
    "英文": ("english",), "英语": ("english",), "中文": ("chinese",), "汉语": ("chinese",), "法语": ("french",),
    "法文": ("french",), "德语": ("german",), "德文": ("german",), "日语": ("japanese",), "日文": ("japanese",),
    "西班牙语": ("spanish",), "意大利语": ("italian",), "韩语": ("korean",), "俄语": ("russian",),
    "葡萄牙语": ("portuguese",),
    # health and everyday life
    "睡眠": ("sleep",), "心率": ("heart", "rate"), "血压": ("blood", "pressure"), "药": ("medicine", "medication"),
    "医生": ("doctor",), "挂号": ("appointment", "doctor"), "预约医生": ("appointment", "doctor"),
    "宠物": ("pet", "pets"), "植物": ("plant", "plants"), "浇水": ("water", "watering"),
    "停车": ("parking", "park"), "打车": ("taxi", "ride"), "出租车": ("taxi",), "油价": ("fuel", "price"),
    "加油": ("fuel",), "油耗": ("fuel", "consumption"), "保险": ("insurance",), "工资": ("salary",),
    "税": ("tax",), "个税": ("tax", "income"), "优惠券": ("coupon",), "积分": ("points",),
    "电影票": ("ticket", "movie"), "演唱会": ("concert",), "比赛": ("match", "game", "score"), "比分": ("score",),
    "球队": ("team",), "照片": ("photo", "image"), "图片": ("image", "photo"), "打印": ("print",),
    "电池": ("battery",), "电量": ("battery",), "扫地机": ("vacuum",), "洗衣机": ("washer", "laundry"),
    "电视": ("tv", "television"), "摄像头": ("camera",), "密码锁": ("lock",), "音乐": ("music", "song"),
    "播客": ("podcast",), "歌词": ("lyrics",), "新闻标题": ("headline", "news"),
    # work, messages and files
    "短信": ("sms", "text", "message"), "消息": ("message",), "发送": ("send",), "联系人": ("contact",),
    "电话": ("phone", "call"), "打电话": ("call", "phone"), "备忘录": ("note", "memo"), "提醒事项": ("reminder",),
    "文件夹": ("folder", "directory"), "目录": ("directory", "folder"), "下载": ("download",),
    "上传": ("upload",), "删除": ("delete", "remove"), "重命名": ("rename",), "工单": ("ticket",),
    "服务器": ("server",), "重启": ("restart", "reboot"), "部署": ("deploy",), "版本": ("version",),
    "仓库": ("repo", "repository"), "分支": ("branch",), "客户": ("customer",), "库存量": ("stock", "inventory"),
    "发票号": ("invoice",), "会员": ("member", "membership"), "订阅号": ("subscription",),
    # priorities and games
    "紧急": ("urgent", "high", "critical"), "重要": ("important", "high"), "不急": ("low",),
    "骰子": ("dice", "die"), "掷": ("roll",), "抛硬币": ("coin", "flip"), "随机数": ("random", "number"),
    "静音": ("mute",), "频道": ("channel",),
    # request verbs
    "计算": ("calculate", "compute"), "创建": ("create", "new"), "新建": ("create", "new"), "添加": ("add",),
    "更新": ("update",), "修改": ("update", "change", "edit"), "设置": ("set",), "估算": ("estimate",),
    "估计": ("estimate",), "比较": ("compare",), "推荐": ("recommend",), "统计": ("count",),
    "查询": ("lookup", "check", "search"), "退订": ("unsubscribe",), "注册": ("register", "signup"),
    "报名": ("register", "signup"), "安排": ("schedule",), "分享": ("share",), "评分": ("rating", "rate"),
    # numbers and geography
    "最大公约数": ("gcd", "greatest", "common", "divisor"), "最小公倍数": ("lcm", "least", "common", "multiple"),
    "平均": ("average", "mean"), "阶乘": ("factorial",), "质数": ("prime",), "素数": ("prime",),
    "面积": ("area",), "半径": ("radius",), "首都": ("capital",), "国家": ("country",), "人口": ("population",),
    # travel, time and the web
    "酒店": ("hotel",), "机场": ("airport",), "签证": ("visa",), "时区": ("timezone", "zone"),
    "时间": ("time",), "几点": ("time",), "汇率": ("rate", "exchange"), "链接": ("link", "url"),
    "网址": ("url", "link"), "缩短": ("shorten", "short"), "短链接": ("shorten", "short", "link"),
    "意思": ("meaning", "define", "definition"), "定义": ("definition", "define"), "含义": ("meaning", "define"),
    "搜索": ("search",), "查找": ("search", "find"), "单位": ("unit",), "长度": ("length",),
    "英尺": ("feet",), "英寸": ("inches",), "厘米": ("centimeters",), "毫米": ("millimeters",),
    "公里": ("kilometers",), "英里": ("miles",), "公斤": ("kilograms", "kg"),
    "磅": ("pounds",), "空气质量": ("air", "quality"), "空气": ("air",),
    "警报": ("alert", "alerts"), "预警": ("alert", "alerts"), "暴风雨": ("storm",),
    "洪水": ("flood",), "高温": ("heat",), "订阅": ("subscribe",), "股票代码": ("ticker", "symbol"),
}

# Function words and the verbs of a request ("please check ..."): never the subject of a question.
STOPWORDS = frozenset(
    """a about after all also am an and any are as at be been before between both but by can check could
    did do does doing find for from give had has have how i if in instead into is it its know let like look me my
    need of on or our please rather say says show should so switch tell than that the their them then there these
    they this those to today tomorrow turn up us want was we were what whats when where which who why will
    with would you your""".split()
)

_CHINESE_NUMERALS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}

# Runs of characters an arithmetic expression is made of (full-width forms included).
_EXPRESSION_RUN = re.compile(r"[0-9.\s+\-*/×÷^%()（）＋－＊／]+")
_OPERATOR_BETWEEN = re.compile(r"[0-9)]\s*(?:[-+*/%^]|\*\*|//)\s*[-+]?[0-9(]")
_NORMALISE = str.maketrans({"×": "*", "÷": "/", "（": "(", "）": ")", "＋": "+", "－": "-", "＊": "*", "／": "/"})


def language_of(text: str) -> Language:
    """``"zh"`` when the text holds any Chinese character, else ``"en"``."""
    return "zh" if _CJK.search(text) else "en"


def say(language: Language, zh: str, en: str) -> str:
    """Pick the phrasing for the question's language."""
    return zh if language == "zh" else en


def words(text: str) -> list[str]:
    """Lower-case words of the text (letters and digits), stopwords removed, in order."""
    found = re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.casefold().replace("’", "'"))
    # A possessive is its noun: "a lamp's brightness" is about a lamp.
    found = [w.removesuffix("'s") for w in found]
    return [w for w in found if w.replace("'", "") not in STOPWORDS]


def stem(word: str) -> str:
    """A crude plural stripper, enough to match "lessons" with "lesson" and "cities" with "city"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def cjk_bigrams(text: str) -> set[str]:
    """Every pair of adjacent Chinese characters: the unit of word matching in Chinese text."""
    bigrams: set[str] = set()
    for run in re.findall(r"[\u3400-\u9fff\uf900-\ufaff]+", text):
        bigrams.update(run[i : i + 2] for i in range(len(run) - 1))
    return bigrams


def mentions(text: str, phrases: Iterable[str]) -> bool:
    """Does the text contain any of the phrases? English phrases match whole words, case-insensitively."""
    for phrase in phrases:
        if _CJK.search(phrase):
            if phrase in text:
                return True
        elif re.search(rf"(?<![a-z]){re.escape(phrase)}(?![a-z])", text, re.IGNORECASE):
            return True
    return False


def find_places(text: str) -> list[str]:
    """Known places named in the text, spelled as written, in the order they appear."""
    found: list[tuple[int, str]] = []
    for chinese, english in GAZETTEER:
        for name in (chinese, *english):
            pattern = re.escape(name) if _CJK.search(name) else rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])"
            for match in re.finditer(pattern, text, flags=0 if _CJK.search(name) else re.IGNORECASE):
                found.append((match.start(), match.group(0)))
    seen: set[str] = set()
    places = []
    for _, name in sorted(found):
        if name.casefold() not in seen:
            seen.add(name.casefold())
            places.append(name)
    return places


def find_phrases(text: str, phrases: Iterable[str]) -> list[tuple[str, int]]:
    """(phrase as listed, position) for each of the phrases in the text, in order; English ones as whole words."""
    found = []
    for phrase in phrases:
        pattern = re.escape(phrase) if _CJK.search(phrase) else rf"(?<![A-Za-z]){re.escape(phrase)}(?![A-Za-z])"
        found += [(phrase, m.start()) for m in re.finditer(pattern, text, flags=re.IGNORECASE)]
    # A longer phrase wins over one inside it ("living room" over "room", "美元" inside nothing longer).
    kept = [(p, i) for p, i in found if not any(j <= i and i + len(p) <= j + len(q) and q != p for q, j in found)]
    return sorted(kept, key=lambda pair: pair[1])


def find_expressions(text: str) -> list[str]:
    """Arithmetic expressions in the text (numbers joined by operators), in a form Python's parser reads.

    ``×`` ``÷`` and full-width signs become ``*`` ``/``; ``^`` becomes ``**``.
    """
    expressions = []
    for run in _EXPRESSION_RUN.findall(text):
        candidate = " ".join(run.translate(_NORMALISE).split()).strip(" +-*/^%")
        candidate = _balance(candidate)
        if _OPERATOR_BETWEEN.search(candidate):
            expressions.append(candidate.replace("^", "**"))
    return expressions


def _balance(expression: str) -> str:
    """Drop unmatched parentheses at the edges, e.g. the ``(`` of "(what is 2+3)"."""
    while expression.startswith("(") and expression.count("(") > expression.count(")"):
        expression = expression[1:].strip()
    while expression.endswith(")") and expression.count(")") > expression.count("("):
        expression = expression[:-1].strip()
    return expression


def _number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    if token == "十":
        return 10
    if len(token) == 2 and token[0] == "十":
        return 10 + _CHINESE_NUMERALS.get(token[1], 0)
    return _CHINESE_NUMERALS.get(token)


# "lesson 4", "lessons 1 and 5", "lesson 1 vs lesson 5"; and the Chinese "第4课", "第五节".
_LESSONS_EN = re.compile(r"\blessons?\s+(\d+(?:\s*(?:,|and|&|or|vs\.?|versus|和|与)\s*(?:lesson\s+)?\d+)*)", re.I)
_LESSON_ZH = re.compile(r"第\s*([0-9]+|[一二两三四五六七八九十]+)\s*[课节讲章]")


def lesson_numbers(text: str) -> list[int]:
    """Lesson numbers asked about: "lesson 4", "lessons 1 and 5", "lesson 1 and lesson 5", "第4课", "第一课和第五课"."""
    numbers: list[int] = []
    for match in _LESSONS_EN.finditer(text):
        numbers.extend(int(n) for n in re.findall(r"\d+", match.group(1)))
    for match in _LESSON_ZH.finditer(text):
        number = _number(match.group(1))
        if number:
            numbers.append(number)
    return list(dict.fromkeys(numbers))


def without_lesson_references(text: str) -> str:
    """The text with its lesson references ("lesson 4", "第4课") removed."""
    return _LESSON_ZH.sub(" ", _LESSONS_EN.sub(" ", text))


# Single quotes only where they cannot be an apostrophe; Chinese text may touch them ("把'你好'翻译成英文").
_QUOTES = re.compile(r'"([^"]+)"|“([^”]+)”|《([^》]+)》|「([^」]+)」|(?<![A-Za-z0-9_])\'([^\']+)\'(?![A-Za-z0-9_])')


def quoted(text: str) -> list[str]:
    """Text inside quotes of any common kind: "...", '...', “...”, 《...》, 「...」."""
    return [
        next(group for group in match.groups() if group is not None).strip()
        for match in re.finditer(_QUOTES, text)
    ]


def format_number(value: float) -> str:
    """5.0 -> "5", 5.5 -> "5.5": how a person writes a reading."""
    return str(int(value)) if float(value).is_integer() else str(value)

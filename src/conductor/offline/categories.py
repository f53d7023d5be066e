"""Words of everyday categories, for the offline model's rule-based argument filling.

A parameter named after a category takes the words of that category the question names: a ``species``
parameter and "my cat" give "cat", a ``cuisine`` parameter and "good Italian food" give "italian".

``CATEGORY_WORDS`` maps a category to its terms, separated by whitespace; "_" joins the words of one term
("sea_lion" is "sea lion"). Terms are lowercase because the model compares case-insensitively; Chinese terms
follow the English ones. A term that belongs to several categories ("orange", "strawberry", "cotton") is in
only the one people mean most often, and a word too common to be a value in a sentence ("back", "set",
"fair") is left out ("back" stays in "body part" from before).

``CATEGORY_NAMES`` maps a category to the parameter-name words that ask for it. A parameter's name is split
into words ("event_type" is "event" and "type"), so each entry is one word; "subject" asks for school
subjects only where the description mentions school (an e-mail has a subject too).
"""

CATEGORY_WORDS: dict[str, str] = {
    "animal": """dog dogs puppy puppies cat cats kitten kittens rabbit rabbits hamster hamsters guinea_pig parrot
        parrots bird birds fish goldfish horse horses pony turtle tortoise snake lizard ferret penguin penguins sea_lion
        sea_lions lion lions tiger tigers elephant elephants giraffe giraffes zebra zebras panda pandas bear bears
        monkey monkeys gorilla koala kangaroo otter otters seal seals dolphin dolphins shark sharks wolf wolves fox
        deer owl eagle flamingo flamingos hippo rhino cow cows pig pigs sheep goat goats chicken chickens duck ducks
        bee bees 狗 小狗 猫 小猫 兔子 仓鼠 鹦鹉 鸟 鱼 金鱼 马 乌龟 蛇 熊猫 老虎 狮子 大象 长颈鹿 斑马 企鹅 海狮 猴子 海豚 熊 狼 狐狸
        考拉 袋鼠""",
    "subject": """math maths mathematics algebra geometry calculus physics chemistry biology science history
        geography english literature art music economics computer_science programming philosophy psychology
        数学 语文 英语 物理 化学 生物 历史 地理 政治 音乐 美术 科学""",
    "colour": """red blue green yellow orange purple pink black white grey gray brown silver gold navy beige
        teal turquoise maroon burgundy ivory cream lilac violet magenta cyan indigo scarlet crimson khaki tan charcoal
        emerald amber bronze copper aqua sky_blue baby_blue royal_blue navy_blue light_blue dark_blue light_green
        dark_green lime_green forest_green bottle_green olive_green sage_green mint_green off_white nude taupe mauve
        fuchsia ochre mustard cobalt periwinkle terracotta rose_gold hot_pink lemon_yellow slate_grey multicoloured
        红色 蓝色 绿色 黄色 橙色 紫色 粉色 黑色 白色 灰色 棕色 银色 金色 青色 蓝绿色 绿松石色 栗色 酒红色 象牙白 米色 米白色
        奶油色 淡紫色 薄荷绿 藏青色 紫红色 天蓝色 咖啡色 卡其色 玫红色""",
    "appliance": """fridge fridges refrigerator freezer oven ovens dishwasher washing_machine washer dryer tumble_dryer
        microwave boiler kettle toaster air_conditioner heater vacuum_cleaner coffee_machine stove hob cooker
        冰箱 烤箱 洗碗机 洗衣机 烘干机 微波炉 热水器 空调 吸尘器 电饭煲 咖啡机""",
    "body part": """knee knees shoulder shoulders back lower_back neck ankle ankles wrist wrists elbow elbows hip hips
        foot feet hand hands arm arms leg legs hamstring calf spine jaw
        膝盖 肩膀 腰 颈椎 脖子 脚踝 手腕 手肘 髋关节 脚 手 胳膊 腿""",
    "crop": """wheat barley corn maize rice oats rye soy soybeans soya potatoes canola rapeseed sorghum cotton
        sugarcane sugar_beet sunflowers 小麦 玉米 水稻 大米 大豆 土豆 马铃薯 棉花 油菜 高粱""",
    "sport": """football soccer basketball tennis baseball hockey cricket rugby golf volleyball badminton
        table_tennis swimming cycling running boxing american_football netball lacrosse softball handball
        water_polo squash rowing sailing surfing skiing snowboarding skateboarding climbing rock_climbing bouldering
        archery fencing judo karate taekwondo wrestling mma kickboxing gymnastics athletics track_and_field
        marathon triathlon darts snooker billiards bowling curling ice_hockey field_hockey figure_skating
        ice_skating polo diving kayaking canoeing yoga pilates weightlifting powerlifting horse_riding equestrian
        formula_one motorsport ultimate_frisbee dodgeball paddleboarding padel pickleball rounders jogging
        篮球 足球 网球 棒球 排球 羽毛球 乒乓球 游泳 跑步 骑行 田径 滑雪 冲浪 攀岩 击剑 柔道 空手道 跆拳道 摔跤 拳击 体操
        射箭 高尔夫 板球 橄榄球 冰球 曲棍球 赛艇 帆船 马拉松 瑜伽 保龄球 台球""",
    "cuisine": """italian french chinese japanese korean thai vietnamese indian mexican spanish greek turkish
        lebanese moroccan ethiopian american british caribbean jamaican brazilian peruvian argentinian german
        portuguese mediterranean middle_eastern iranian malaysian indonesian filipino cantonese sichuan szechuan
        hunan taiwanese nepalese sri_lankan pakistani russian polish cajun creole tex_mex soul_food fusion vegan
        vegetarian sushi ramen tapas dim_sum bbq barbecue pizza pasta burger burgers curry curries tacos noodles
        dumplings kebab kebabs fish_and_chips seafood steak steakhouse hotpot hot_pot pho falafel mezze street_food
        意大利菜 法国菜 中餐 中国菜 日料 日本料理 韩国料理 泰国菜 越南菜 印度菜 墨西哥菜 西班牙菜 希腊菜 土耳其菜 川菜 粤菜
        湘菜 东北菜 西餐 火锅 烧烤 寿司 拉面 点心 早茶 自助餐 素食""",
    # One "genre" for music, films and books: a question rarely leaves which kind in doubt.
    "genre": """jazz blues rock pop classical hip_hop hiphop rap r_and_b rnb soul funk disco reggae country_music
        folk metal heavy_metal punk indie electronic edm techno house_music trance dubstep drum_and_bass ambient
        lofi lo_fi kpop k_pop jpop j_pop gospel opera latin_music salsa reggaeton grunge emo ska bluegrass afrobeats
        comedy comedies drama dramas thriller thrillers horror romance romcom rom_com sci_fi science_fiction fantasy
        mystery mysteries crime action adventure animation documentary documentaries western westerns musical
        musicals biography memoir memoirs self_help poetry historical_fiction young_adult graphic_novel
        graphic_novels manga anime noir dystopian non_fiction nonfiction literary_fiction true_crime
        爵士 爵士乐 摇滚 流行乐 流行音乐 古典乐 古典音乐 嘻哈 说唱 民谣 电子音乐 重金属 朋克 蓝调 乡村音乐 喜剧 剧情片 恐怖片 惊悚
        爱情片 科幻 奇幻 悬疑 推理小说 动作片 动画 纪录片 武侠 言情 传记 诗歌""",
    "instrument": """piano pianos keyboard keyboards organ violin violins viola cello cellos double_bass bass guitar
        guitars acoustic_guitar electric_guitar bass_guitar ukulele ukuleles banjo mandolin harp harps drums drum
        drum_kit percussion snare cymbals xylophone marimba glockenspiel flute flutes piccolo clarinet clarinets
        oboe bassoon saxophone saxophones sax trumpet trumpets trombone french_horn tuba cornet harmonica accordion
        recorder bagpipes synthesizer synth tabla sitar erhu guzheng pipa bongos congas tambourine cajon
        steel_drums ocarina kalimba
        钢琴 小提琴 中提琴 大提琴 低音提琴 吉他 电吉他 贝斯 尤克里里 竖琴 架子鼓 爵士鼓 长笛 单簧管 双簧管 萨克斯 小号 长号
        圆号 口琴 手风琴 二胡 古筝 琵琶 笛子 竹笛 扬琴 马头琴 木琴""",
    "fruit": """apple apples banana bananas oranges pear pears grape grapes strawberry strawberries raspberry
        raspberries blueberry blueberries blackberry blackberries cherry cherries peach peaches plum plums apricot
        apricots mango mangoes mangos pineapple pineapples kiwi kiwis kiwi_fruit watermelon watermelons melon
        melons cantaloupe lemon lemons lime limes grapefruit mandarin mandarins clementine clementines tangerine
        tangerines satsuma satsumas fig figs pomegranate pomegranates papaya passion_fruit lychee lychees
        dragon_fruit durian guava persimmon avocado avocados coconut coconuts gooseberries cranberries nectarine
        nectarines
        苹果 香蕉 橙子 橘子 梨 葡萄 草莓 树莓 蓝莓 樱桃 车厘子 桃子 李子 杏子 芒果 菠萝 凤梨 猕猴桃 奇异果 西瓜 哈密瓜 柠檬
        青柠 柚子 无花果 石榴 荔枝 龙眼 榴莲 火龙果 木瓜 山竹 柿子 牛油果 椰子""",
    "vegetable": """carrot carrots broccoli cauliflower cabbage cabbages lettuce spinach kale pea peas green_beans
        beans onion onions garlic leek leeks celery cucumber cucumbers courgette courgettes zucchini aubergine
        aubergines eggplant eggplants tomato tomatoes pepper peppers bell_pepper bell_peppers chilli_pepper
        sweet_potato sweet_potatoes sweetcorn beetroot beet beets radish radishes turnip turnips parsnip parsnips
        asparagus artichoke artichokes brussels_sprouts sprouts mushroom mushrooms pumpkin pumpkins
        butternut_squash okra bok_choy pak_choi kohlrabi fennel arugula watercress chard swede yam yams cassava
        taro rhubarb spring_onion spring_onions shallot shallots
        胡萝卜 西兰花 花椰菜 菜花 卷心菜 白菜 生菜 菠菜 豌豆 洋葱 大蒜 芹菜 黄瓜 西葫芦 茄子 西红柿 番茄 辣椒 青椒 红薯 地瓜
        甜菜 萝卜 芦笋 蘑菇 香菇 南瓜 秋葵 青菜 韭菜 山药 芋头 莲藕 冬瓜 苦瓜 豆芽""",
    "drink": """coffee coffees latte lattes flat_white flat_whites espresso espressos cappuccino cappuccinos
        americano americanos mocha macchiato cortado cold_brew iced_coffee iced_latte frappuccino tea teas green_tea
        black_tea earl_grey chai chai_latte matcha_latte herbal_tea peppermint_tea chamomile_tea bubble_tea
        milk_tea hot_chocolate cocoa juice orange_juice apple_juice smoothie smoothies milkshake milkshakes lemonade
        cola coke diet_coke soda sparkling_water mineral_water tonic_water kombucha beer beers lager lagers ale
        ales ipa stout pale_ale cider ciders wine wines red_wine white_wine rose_wine prosecco champagne cocktail
        cocktails mojito mojitos margarita margaritas martini negroni aperol_spritz spritz gin_and_tonic gin vodka
        whisky whiskey rum tequila brandy soju baijiu mocktail mocktails energy_drink milk oat_milk
        咖啡 拿铁 美式咖啡 卡布奇诺 浓缩咖啡 摩卡 绿茶 红茶 乌龙茶 奶茶 珍珠奶茶 果汁 橙汁 柠檬水 可乐 汽水 苏打水 啤酒
        红酒 葡萄酒 白酒 香槟 鸡尾酒 威士忌 伏特加 牛奶 豆浆 椰子水 气泡水 抹茶拿铁""",
    "flower": """rose roses tulip tulips daisy daisies lily lilies sunflower orchid orchids peony peonies carnation
        carnations chrysanthemum chrysanthemums daffodil daffodils hydrangea hydrangeas lavender lilacs iris
        irises poppy poppies marigold marigolds dahlia dahlias geranium geraniums begonia begonias camellia
        camellias magnolia magnolias jasmine hibiscus lotus freesia freesias gardenia anemone anemones bluebell
        bluebells snowdrop snowdrops crocus crocuses hyacinth hyacinths pansy pansies petunia petunias violets
        sweet_pea sweet_peas gerbera gerberas ranunculus lupin lupins foxglove foxgloves azalea azaleas
        cherry_blossom cherry_blossoms wisteria primrose primroses buttercup buttercups gladiolus protea chamomile
        玫瑰 月季 郁金香 雏菊 百合 向日葵 兰花 牡丹 芍药 康乃馨 菊花 水仙 绣球 薰衣草 丁香 鸢尾 罂粟 茉莉 荷花 莲花 樱花
        梅花 桃花 杜鹃 山茶花 桂花 风信子 满天星""",
    # Houseplants, garden plants, herbs and trees together: "plant" and "tree" parameters ask for the same kind.
    "plant": """monstera snake_plant snake_plants fiddle_leaf_fig pothos spider_plant spider_plants peace_lily
        rubber_plant zz_plant aloe aloe_vera cactus cacti succulent succulents fern ferns bonsai ivy philodendron
        calathea bamboo palm_tree palm_trees yucca jade_plant money_tree string_of_pearls bird_of_paradise
        air_plant basil rosemary thyme sage parsley coriander cilantro oregano dill chives tomato_plant
        tomato_plants boxwood hosta hostas heather rhododendron rhododendrons buddleia clematis honeysuckle oak oaks
        maple maples birch birches pine pines willow willows elm elms beech beeches cedar cedars cypress fir firs
        spruce redwood sequoia eucalyptus apple_tree apple_trees olive_tree olive_trees lemon_tree fig_tree
        cherry_tree holly yew sycamore poplar larch baobab ginkgo acacia
        绿萝 龟背竹 虎皮兰 吊兰 发财树 琴叶榕 多肉 仙人掌 芦荟 竹子 富贵竹 文竹 橡皮树 盆景 罗勒 迷迭香 百里香 香菜 橡树
        枫树 松树 柳树 桦树 银杏 樟树 梧桐""",
    "vehicle": """car cars van vans suv suvs truck trucks lorry lorries pickup_truck motorcycle motorcycles
        motorbike motorbikes scooter scooters moped mopeds bus buses minibus bike bikes bicycle bicycles e_bike
        ebike electric_car electric_cars hatchback hatchbacks sedan sedans saloon estate_car convertible
        convertibles coupe minivan campervan campervans motorhome motorhomes caravan caravans tractor tractors taxi
        taxis boat boats ship ships ferry ferries yacht yachts plane planes airplane aeroplane helicopter helicopters
        train trains tram trams jeep limousine limo tricycle go_kart quad_bike forklift ambulance fire_engine
        汽车 小汽车 轿车 面包车 越野车 卡车 货车 摩托车 电动车 电瓶车 自行车 单车 公交车 公共汽车 大巴 出租车
        电动汽车 房车 拖拉机 游艇 飞机 直升机 火车 高铁 地铁 有轨电车""",
    # "cotton" stays a crop, where it was first; "organic_cotton" is here.
    "fabric": """linen wool silk denim leather faux_leather suede polyester nylon spandex lycra elastane rayon
        viscose cashmere merino merino_wool velvet satin chiffon tweed corduroy fleece flannel jersey canvas muslin
        lace organza tulle taffeta twill poplin chambray gabardine hemp jute acrylic modal lyocell tencel mohair
        alpaca angora microfiber microfibre gore_tex neoprene organic_cotton vinyl pvc oilcloth calico gingham
        chenille georgette voile seersucker
        纯棉 棉布 亚麻 羊毛 真丝 丝绸 牛仔布 皮革 真皮 麂皮 涤纶 尼龙 氨纶 羊绒 天鹅绒 丝绒 缎面 雪纺 灯芯绒 摇粒绒 法兰绒
        帆布 蕾丝 针织""",
    "pest": """ant ants mouse mice rat rats cockroach cockroaches roach roaches wasp wasps hornet hornets bed_bug
        bed_bugs bedbugs termite termites moth moths clothes_moths flies fruit_fly fruit_flies housefly houseflies
        mosquito mosquitoes mosquitos flea fleas ticks silverfish spider spiders woodlice woodlouse slug slugs snail
        snails aphid aphids greenfly whitefly caterpillar caterpillars squirrel squirrels pigeon pigeons mole moles
        lice head_lice nits mites dust_mites weevil weevils beetle beetles carpet_beetle carpet_beetles woodworm
        earwig earwigs locust locusts
        蚂蚁 老鼠 蟑螂 黄蜂 马蜂 臭虫 床虱 白蚁 飞蛾 蛾子 苍蝇 果蝇 蚊子 跳蚤 蜱虫 蜘蛛 蛞蝓 蜗牛 蚜虫 毛毛虫 螨虫 虱子
        甲虫""",
    "profession": """nurse nurses teacher teachers plumber plumbers electrician electricians software_engineer
        software_engineers data_engineer data_engineers data_scientist data_scientists data_analyst data_analysts
        product_manager product_managers project_manager project_managers designer designers ux_designer
        graphic_designer developer developers web_developer frontend_developer backend_developer
        full_stack_developer devops_engineer machine_learning_engineer qa_engineer doctor doctors gp dentist
        dentists pharmacist pharmacists accountant accountants lawyer lawyers solicitor solicitors barrister
        architect architects engineer engineers mechanic mechanics carpenter carpenters builder builders chef
        chefs waiter waiters waitress barista baristas cleaner cleaners driver drivers pilot pilots firefighter
        firefighters police_officer paramedic paramedics vet vets social_worker therapist counsellor psychologist
        journalist journalists writer writers editor editors photographer photographers marketing_manager
        sales_assistant salesperson receptionist receptionists cashier librarian scientist researcher lecturer
        professor tutor tutors consultant consultants analyst analysts hairdresser hairdressers barber gardener
        gardeners farmer farmers welder surveyor translator interpreter midwife midwives carer care_worker
        security_guard
        护士 老师 教师 水管工 电工 软件工程师 数据工程师 数据分析师 产品经理 项目经理 设计师 程序员 医生 牙医 药剂师 会计 律师
        建筑师 工程师 厨师 服务员 司机 飞行员 消防员 警察 记者 摄影师 前台 收银员 研究员 教授 保安 农民""",
    # Programming languages, data and cloud tools, and a few work skills; "go" is too common a word ("golang").
    "skill": """python javascript typescript java rust golang kotlin swift scala ruby php perl c_sharp csharp
        haskell elixir matlab dart lua powershell sql nosql postgresql postgres mysql sqlite mongodb redis
        cassandra elasticsearch kafka spark pyspark hadoop airflow dbt snowflake databricks bigquery redshift
        tableau power_bi looker excel numpy pytorch tensorflow scikit_learn sklearn docker kubernetes k8s
        terraform ansible aws azure gcp google_cloud linux git github jenkins ci_cd react angular vue vuejs svelte
        nextjs node nodejs django flask fastapi spring_boot rails ruby_on_rails dotnet html css graphql
        machine_learning deep_learning nlp data_analysis data_visualisation statistics figma photoshop
        public_speaking leadership project_management negotiation
        机器学习 深度学习 数据分析 人工智能 前端 后端 云计算 数据库 编程 大数据 运维 爬虫""",
    "clothing": """shirt shirts t_shirt t_shirts tshirt tee jeans trousers pants shorts skirt skirts dress dresses
        jacket jackets coat coats hoodie hoodies jumper jumpers sweater sweaters cardigan cardigans blouse blouses
        blazer blazers tuxedo waistcoat vest vests leggings joggers tracksuit tracksuits pyjamas pajamas socks
        sock tights scarf scarves gloves glove hat hats cap caps beanie beanies boots shoes shoe trainers sneakers
        sandals heels loafers slippers raincoat parka anorak gilet poncho kimono swimsuit swimsuits bikini
        underwear bra bras polo_shirt overalls dungarees jumpsuit puffer_jacket windbreaker belt belts
        衬衫 t恤 牛仔裤 裤子 短裤 裙子 连衣裙 夹克 外套 大衣 卫衣 毛衣 开衫 西装 背心 打底裤 睡衣 袜子 围巾 手套 帽子 靴子
        鞋子 运动鞋 凉鞋 高跟鞋 拖鞋 雨衣 羽绒服 泳衣 内衣 领带""",
    # Dog and cat breeds: a "breed" parameter asks for either.
    "breed": """labrador labradors golden_retriever golden_retrievers retriever beagle beagles poodle poodles
        cockapoo cavapoo labradoodle labradoodles german_shepherd german_shepherds alsatian bulldog bulldogs
        french_bulldog french_bulldogs frenchie english_bulldog pug pugs dachshund dachshunds sausage_dog
        chihuahua chihuahuas husky huskies siberian_husky border_collie border_collies collie corgi corgis
        shih_tzu yorkshire_terrier yorkie jack_russell staffordshire_bull_terrier staffie rottweiler rottweilers
        doberman great_dane greyhound greyhounds whippet whippets dalmatian dalmatians spaniel spaniels
        cocker_spaniel springer_spaniel cavalier_king_charles_spaniel schnauzer miniature_schnauzer maltese
        pomeranian samoyed shiba_inu akita bernese_mountain_dog saint_bernard st_bernard mastiff bichon_frise
        bichon sheltie weimaraner vizsla basset_hound bloodhound pit_bull pitbull terrier terriers border_terrier
        westie boxer persian siamese maine_coon ragdoll sphynx bengal british_shorthair scottish_fold
        拉布拉多 金毛 金毛寻回犬 比格犬 贵宾犬 泰迪 柯基 哈士奇 德牧 德国牧羊犬 边牧 边境牧羊犬 法斗 法国斗牛犬 斗牛犬 柴犬
        秋田犬 萨摩耶 博美 吉娃娃 雪纳瑞 腊肠犬 巴哥 比熊 杜宾 布偶猫 英短 暹罗猫 缅因猫 波斯猫""",
    "event": """wedding weddings birthday birthdays birthday_party conference conferences gala galas funeral
        funerals graduation graduations corporate_event corporate_events christening baptism anniversary
        anniversaries engagement_party baby_shower bridal_shower hen_party hen_do stag_party stag_do
        bachelor_party bachelorette_party retirement_party leaving_do prom proms reunion reunions seminar seminars
        workshop workshops meetup meetups networking_event product_launch launch_party trade_show exhibition
        exhibitions festival festivals concert concerts awards_ceremony award_ceremony fundraiser fundraisers
        charity_ball dinner_party dinner_parties garden_party christmas_party office_party team_building summit
        summits webinar webinars hackathon hackathons bar_mitzvah bat_mitzvah memorial house_party housewarming
        sweet_sixteen
        婚礼 婚宴 生日 生日派对 生日会 会议 研讨会 年会 晚会 晚宴 葬礼 追悼会 毕业典礼 订婚宴 满月酒 周年纪念 同学会 聚会 展览
        展会 音乐会 演唱会 发布会 团建 讲座 颁奖典礼""",
    # Fruit flavours ("strawberry", "lemon") are under "fruit", where people mean them most often.
    "flavour": """vanilla chocolate dark_chocolate white_chocolate milk_chocolate caramel salted_caramel toffee
        butterscotch fudge mint peppermint spearmint mint_choc_chip mint_chocolate_chip cookies_and_cream
        cookie_dough rocky_road pistachio hazelnut praline almond matcha honey cinnamon ginger maple_pecan
        butter_pecan neapolitan tutti_frutti bubblegum cotton_candy candyfloss birthday_cake red_velvet
        carrot_cake lemon_drizzle banoffee tiramisu cheesecake stracciatella raspberry_ripple rum_and_raisin
        black_forest marshmallow peanut_butter sea_salt salt_and_vinegar cheese_and_onion sour_cream_and_onion
        smoky_bacon prawn_cocktail sweet_chilli chilli unflavoured
        香草 巧克力 抹茶 焦糖 咸焦糖 薄荷 开心果 榛子 红豆 芋泥 原味 蜂蜜 肉桂 黑芝麻 花生 奶油 提拉米苏""",
    # "rye" stays a crop, where it was first; "rye_bread" is here.
    "bread": """sourdough sourdoughs rye_bread dark_rye baguette baguettes ciabatta ciabattas wholemeal wholewheat
        whole_wheat brioche focaccia pitta pita pitta_bread naan naans chapati chapatis roti tortilla tortillas
        bagel bagels croissant croissants white_bread brown_bread granary multigrain seeded spelt soda_bread
        pumpernickel challah cornbread flatbread flatbreads english_muffin english_muffins crumpet crumpets bun
        buns bap baps bread_rolls bloomer tiger_bread sandwich_loaf milk_bread panettone stollen banana_bread
        garlic_bread potato_bread malt_loaf teacake teacakes
        吐司 法棍 全麦面包 黑麦面包 酸面包 酸种面包 牛角包 可颂 贝果 馒头 花卷 包子 烧饼 馕 佛卡夏 欧包 白面包""",
    "cheese": """cheddar brie gouda manchego parmesan parmigiano mozzarella burrata feta halloumi camembert stilton
        roquefort gorgonzola emmental gruyere comte edam wensleydale red_leicester double_gloucester blue_cheese
        goats_cheese goat_cheese cream_cheese cottage_cheese ricotta mascarpone paneer pecorino provolone
        jarlsberg havarti raclette taleggio fontina monterey_jack colby pepper_jack swiss_cheese american_cheese
        queso_fresco cotija port_salut reblochon munster limburger danish_blue
        芝士 奶酪 干酪 切达 切达奶酪 布里 马苏里拉 帕玛森 帕尔马干酪 菲达 哈罗米 卡门贝尔 蓝纹奶酪 奶油奶酪 马斯卡彭""",
    "symptom": """cough coughs coughing fever fevers high_temperature headache headaches migraine migraines rash
        rashes sore_throat runny_nose blocked_nose stuffy_nose congestion sneezing nausea vomiting diarrhoea
        diarrhea constipation dizziness fatigue tiredness insomnia back_pain chest_pain stomach_ache stomachache
        tummy_ache earache toothache joint_pain muscle_pain swelling itching itchiness chills shortness_of_breath
        breathlessness wheezing palpitations numbness tingling bloating heartburn indigestion acid_reflux cramps
        loss_of_smell loss_of_taste sweating night_sweats hives nosebleed nosebleeds bruising
        咳嗽 发烧 发热 头痛 头疼 偏头痛 皮疹 喉咙痛 嗓子疼 流鼻涕 鼻塞 打喷嚏 恶心 呕吐 腹泻 拉肚子 便秘 头晕 疲劳 乏力
        失眠 胸痛 胃痛 肚子疼 牙疼 牙痛 耳朵疼 肿胀 瘙痒 发冷 气短 心悸 胀气 反酸""",
}

# The parameter-name words that ask for each category; "subject" only where school is meant (an e-mail has one).
CATEGORY_NAMES: dict[str, frozenset[str]] = {
    "animal": frozenset({"animal", "animals", "species", "pet", "creature"}),
    "subject": frozenset({"subject", "course"}),
    "appliance": frozenset({"appliance", "appliances", "device", "machine"}),
    "crop": frozenset({"crop", "crops", "grain"}),
    "body part": frozenset({"body", "joint", "injury", "limb"}),
    "colour": frozenset({"colour", "color", "colours", "colors"}),
    "sport": frozenset({"sport", "sports"}),
    "cuisine": frozenset({"cuisine", "cuisines"}),
    "genre": frozenset({"genre", "genres"}),
    "instrument": frozenset({"instrument", "instruments"}),
    "fruit": frozenset({"fruit", "fruits"}),
    "vegetable": frozenset({"vegetable", "vegetables", "veg", "veggie", "veggies"}),
    "drink": frozenset({"drink", "drinks", "beverage", "beverages"}),
    "flower": frozenset({"flower", "flowers", "bloom", "blooms"}),
    "plant": frozenset({"plant", "plants", "houseplant", "houseplants", "shrub", "shrubs", "tree", "trees",
                        "herb", "herbs"}),
    "vehicle": frozenset({"vehicle", "vehicles"}),
    "fabric": frozenset({"fabric", "fabrics", "material", "materials", "cloth", "textile", "textiles"}),
    "pest": frozenset({"pest", "pests", "insect", "insects", "vermin"}),
    # Not "title": a book has one too.
    # Not "job", "role" or "position": a print job, a user's role and a position on a map are no professions.
    "profession": frozenset({"profession", "professions", "occupation", "occupations", "career", "careers"}),
    # Not "language": a spoken language is asked for by that word far more often.
    "skill": frozenset({"skill", "skills", "programming", "tech", "stack", "technology", "technologies"}),
    "clothing": frozenset({"garment", "garments", "clothing", "clothes", "apparel"}),
    "breed": frozenset({"breed", "breeds"}),
    "event": frozenset({"occasion", "occasions"}),
    "flavour": frozenset({"flavour", "flavor", "flavours", "flavors"}),
    "bread": frozenset({"bread", "breads", "loaf", "loaves"}),
    "cheese": frozenset({"cheese", "cheeses"}),
    "symptom": frozenset({"symptom", "symptoms", "ailment", "ailments"}),
}

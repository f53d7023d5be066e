"""Four tools a learner writes first, as a newcomer wrote them, for tests of the offline model's answers.

A currency converter whose parameters ask for ISO 4217 codes, a time-zone lookup, a recipe scaler
(original_servings, new_servings, recipe) and a shipping estimator (weight_kg, country). Each
computes its result from its arguments, so an answer that quotes the wrong value is caught.
"""

from __future__ import annotations

import conductor as cd

_PER_USD = {"USD": 1.0, "EUR": 0.92, "GBP": 0.79, "JPY": 151.2, "CNY": 7.24, "AUD": 1.53}
_ZONES = {
    "london": ("Europe/London", 0), "伦敦": ("Europe/London", 0), "sydney": ("Australia/Sydney", 11),
    "悉尼": ("Australia/Sydney", 11), "tokyo": ("Asia/Tokyo", 9), "东京": ("Asia/Tokyo", 9),
    "new york": ("America/New_York", -5), "纽约": ("America/New_York", -5), "paris": ("Europe/Paris", 1),
    "巴黎": ("Europe/Paris", 1), "beijing": ("Asia/Shanghai", 8), "北京": ("Asia/Shanghai", 8),
}
_RECIPES = {
    "pancake": {"flour_g": 200, "milk_ml": 300, "eggs": 2},
    "lasagna": {"pasta_sheets": 12, "minced_beef_g": 500, "tomato_sauce_ml": 400},
    "cookie": {"butter_g": 115, "sugar_g": 100, "flour_g": 150, "chocolate_chips_g": 170},
    "饺子": {"面粉_g": 500, "猪肉馅_g": 400, "白菜_g": 300},
}
_RATES_PER_KG = {"germany": 6.5, "德国": 6.5, "australia": 14.0, "澳大利亚": 14.0, "france": 6.0, "法国": 6.0,
                 "japan": 11.0, "日本": 11.0}


@cd.tool
def convert_currency(amount: float, from_currency: str, to_currency: str) -> dict:
    """Convert an amount of money from one currency to another at today's rate.

    Args:
        amount: The amount of money to convert.
        from_currency: ISO 4217 code of the currency to convert from, e.g. USD.
        to_currency: ISO 4217 code of the currency to convert to, e.g. EUR.
    """
    source, target = from_currency.upper(), to_currency.upper()
    if source not in _PER_USD or target not in _PER_USD:
        raise ValueError(f"unknown currency code: {source if source not in _PER_USD else target}")
    converted = round(amount / _PER_USD[source] * _PER_USD[target], 2)
    return {"amount": amount, "from_currency": source, "to_currency": target, "converted": converted}


@cd.tool
def get_local_time(city: str) -> dict:
    """Look up the current local time and time zone of a city.

    Args:
        city: The city, e.g. London or 东京.
    """
    zone, offset = _ZONES.get(city.casefold(), (None, None))
    if zone is None:
        raise ValueError(f"unknown city: {city}")
    hour = (12 + offset) % 24
    return {"city": city, "timezone": zone, "local_time": f"{hour:02d}:00", "utc_offset": f"{offset:+d}"}


@cd.tool
def scale_recipe(recipe: str, original_servings: int, new_servings: int) -> dict:
    """Scale a recipe's ingredient quantities from one number of servings to another.

    Args:
        recipe: The recipe's name, e.g. lasagna.
        original_servings: How many servings the recipe makes as written.
        new_servings: How many servings are wanted.
    """
    ingredients = _RECIPES.get(recipe.casefold())
    if ingredients is None:
        raise ValueError(f"no recipe called {recipe}")
    factor = new_servings / original_servings
    scaled = {name: round(quantity * factor, 1) for name, quantity in ingredients.items()}
    return {"recipe": recipe, "servings": new_servings, "factor": round(factor, 2), "ingredients": scaled}


@cd.tool
def estimate_shipping(weight_kg: float, country: str) -> dict:
    """Estimate the cost and delivery time of shipping a parcel abroad.

    Args:
        weight_kg: The parcel's weight in kilograms.
        country: The destination country.
    """
    rate = _RATES_PER_KG.get(country.casefold())
    if rate is None:
        raise ValueError(f"no shipping to {country}")
    return {"country": country, "weight_kg": weight_kg, "cost": round(5 + rate * weight_kg, 2), "currency": "EUR",
            "delivery_days": 4 if rate < 10 else 9}


TOOLS = [convert_currency, get_local_time, scale_recipe, estimate_shipping]

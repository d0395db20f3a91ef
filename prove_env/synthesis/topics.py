"""Requests off every server's topic, by topic: the irrelevant queries a task may carry.

A recipe declares the topics its server serves (`Recipe.topics`, from `TOPICS`); the requests of those
topics are never drawn as irrelevant for it (`perturb.irrelevant_query`).
"""

from __future__ import annotations

__all__ = ["IRRELEVANT", "TOPICS"]

# (topic, request): things people ask an assistant that a service's tools do not serve. A
# server's recipe lists the topics it does serve, and those requests are never drawn for it.
# Braced words are filled from _SLOTS, so each template yields many distinct requests.
IRRELEVANT: tuple[tuple[str, str], ...] = (
    ("weather", "What's the weather going to be like in {city} this weekend?"),
    ("weather", "Will it rain in {city} tomorrow morning?"),
    ("sports", "Who won the {team} game last night?"),
    ("sports", "When do the {team} play next?"),
    ("cooking", "Can you give me a good recipe for {dish}?"),
    ("cooking", "How long should I cook {dish} for, roughly?"),
    ("translation", "How do you say '{phrase}' in {language}?"),
    ("translation", "Translate '{phrase}' into {language}, please."),
    ("trivia", "What is the tallest mountain in {continent}?"),
    ("trivia", "Who painted {painting}?"),
    ("health", "What are the usual symptoms of {condition}?"),
    ("music", "Recommend a few albums similar to {album}."),
    ("news", "What are today's top headlines about {subject}?"),
    ("math", "What's {a} times {b}, divided by {c}?"),
    ("writing", "Write me a short poem about {subject}."),
    ("travel", "Which is the cheapest month to fly to {city}?"),
    ("shopping", "Which {product} are best for beginners?"),
    ("pets", "How often should I feed a {age}-month-old {pet}?"),
    ("stocks", "Should I buy shares of {company} before its earnings call?"),
    ("email", "Send an email to my {relative} saying I'll be late for dinner."),
    ("maps", "How long does it take to drive from {city} to {city2}?"),
    ("smart_home", "Turn off the lights in the {room}."),
    ("vehicle", "Start my car and warm it up to {degrees} degrees."),
    ("food_delivery", "Order me some {dish} for delivery."),
    ("social_media", "Post a photo of my {dish} to my feed."),
    ("files", "Delete the old screenshots from my {folder} folder."),
    ("calendar", "Put a {appointment} appointment on my calendar for next Thursday."),
    ("banking", "Transfer {a} dollars from my checking account to my savings."),
    ("jokes", "Tell me a joke about {profession}."),
    ("history", "Why did {empire} fall?"),
    ("payments", "Send the invoice for the {product} order to my client and mark it paid."),
    ("budget", "How much did I spend on my hobbies this month, and am I over budget?"),
    ("chat", "Post a message in the team channel saying the build is green."),
    ("meetings", "Start a video call with the {team} fans group and record it."),
    ("auctions", "Bid 20 dollars more on the vintage {product} listing."),
    ("stores", "Which branch near {city} has {product} in stock?"),
    ("sales", "Move our deal with {company} to the negotiation stage."),
    ("projects", "Close the ticket about the login bug and assign the next one to me."),
    ("files", "Zip up my {folder} folder and email it to me."),
)

TOPICS: frozenset[str] = frozenset(topic for topic, _ in IRRELEVANT)
"""Every topic a recipe may declare (the topics of the irrelevant requests)."""

"""Ignite: A New Enemy, the co-operative expansion: rules, enemy automation and stand-in content.

Importing this package registers the game with the engine registry.
"""

from engine.registry import register
from games.ignite.game import Ignite

register(Ignite())

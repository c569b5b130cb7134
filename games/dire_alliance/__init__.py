"""Dire Alliance: Horror (Battle Mode and Raid Mode), registered with the engine as `dire-alliance`."""

from engine.registry import register
from games.dire_alliance.game import DireAlliance

GAME = register(DireAlliance())

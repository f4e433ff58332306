"""The observation and action spaces a learned Protectors policy plays through.

``encoding`` turns a seat's redacted view and its current choice into the fixed-size observation
vector (``layout`` names its slices and the action slots); ``planner`` decomposes each engine decision
into a sequence of small masked choices and builds the decision back from them. ``envs`` wraps them as
Gymnasium / PettingZoo spaces and ``agents.policy`` uses the same code to play a trained checkpoint, so
a policy needs no env to play (imports point one way: envs -> agents -> engine).
"""

import os as _os

from engine.protectors import warn_stale as _warn_stale

# a compiled module older than its source (tools/build_fast.py)
_warn_stale(_os.path.dirname(__file__), "agents.spaces")

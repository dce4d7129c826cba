"""Old name of :mod:`ddsbind.cribbage.code64`, kept so existing imports work.

Importing ``ddsbind.formats.cribbage`` gives the very module
``ddsbind.cribbage.code64`` (one module object, so its names, private ones
included, and any patch of them are shared).
"""

import sys

from ddsbind.cribbage import code64

sys.modules[__name__] = code64

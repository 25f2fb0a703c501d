"""The game on the device: the project's authority in the browser, under Pyodide (docs/architecture.md
"The device host"). It imports no web framework, no validation library and no database library.

>>> from cuarenta.device import DeviceHost
>>> DeviceHost().http("GET", "api/tables/x", None, None).startswith('{"status":404')
True
"""

from __future__ import annotations

from cuarenta.device.host import BOT_DELAY, DEVICE_ONLY_COMPUTER, DeviceHost, Send, device_player
from cuarenta.device.store import MemoryStore

__all__ = ["BOT_DELAY", "DEVICE_ONLY_COMPUTER", "DeviceHost", "MemoryStore", "Send", "device_player"]

"""One file per schema revision, oldest first: ``r0001_baseline`` (the hand-written store's schema), then
``r0002_action_log``."""

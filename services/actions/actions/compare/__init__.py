"""The @Compare worker: 2-5 documents compared theme by theme (holistic) or on one topic (focused)."""

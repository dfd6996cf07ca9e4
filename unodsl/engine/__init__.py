"""The generic, event-driven engine: it plays any checked Variant."""

"""The unodsl expression and effect language: parse, check, compile."""

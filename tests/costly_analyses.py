"""The costliest analyses known: shared by the web tests and the web benchmarks, which
import this module alone (it needs nothing but the standard library)."""

#: Rules that let three blanks make the most equations, and seeds whose first seat is dealt
#: three blanks under them (the analysis reproducer of issue 37).
PERMISSIVE = {
    "preset": "learning",
    "leading_zeros": True,
    "allow_negatives": True,
    "xor_tiles": 20,
    "rotated_equals": True,
    "parallel_numbers": True,
}
THREE_BLANKS_SEEDS = ("28697", "8268", "21830")

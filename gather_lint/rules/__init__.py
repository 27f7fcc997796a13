"""The rule catalogue: one module per rule, each with CODE, NAME, SEVERITY, FIX, check() and EXAMPLES."""
import importlib

_MODULES = (
    "gl001_rank_mismatch",
    "gl002_dim_out_of_range",
    "gl003_index_too_large",
    "gl004_index_from_wrong_dim",
    "gl005_unexpanded_index",
    "gl006_missing_squeeze",
    "gl007_shift_misalignment",
    "gl008_index_dtype",
    "gl009_scatter_writes_slice",
    "gl010_wrapped_indices",
    "gl011_index_out_of_range",
    "gl012_device_mismatch",
    "gl013_overwriting_accumulate",
    "gl014_reduce_includes_buffer",
    "gl015_index_rounded",
    "gl016_src_dtype_mismatch",
    "gl017_advanced_index_per_row",
    "gl018_normalised_other_dim",
    "gl019_along_broadcast_dim",
    "gl020_one_hot_pick_summed_over_batch",
    "gl021_top_k_keeps_one_extra",
    "gl022_penalty_divides_negative_logits",
    "gl023_top_one_drops_k_dim",
    "gl024_last_position_of_padded_batch",
    "gl025_table_overwritten_by_lookup",
    "gl026_interpolation_weights_vanish",
    "gl027_permutation_applied_twice",
    "gl028_one_hot_width_from_batch",
    "gl029_reduction_without_keepdim",
    "gl030_flat_index_wrong_stride",
    "gl031_write_into_index_copy",
    "gl032_write_changes_nothing",
    "gl033_refused_arguments",
    "gl034_positions_of_another_order",
    "gl035_k_exceeds_dim",
    "gl036_broadcast_mismatch",
    "gl037_view_size_mismatch",
)

ALL_RULES = tuple(importlib.import_module(f"{__name__}.{name}") for name in _MODULES)
RULES_BY_CODE = {rule.CODE: rule for rule in ALL_RULES}


def check(site, select=None) -> list:
    """Every violation of every rule at one call (a contract.Site), in rule-code order."""
    found = []
    for rule in ALL_RULES:
        if select is not None and not select(rule.CODE):
            continue
        violation = rule.check(site)
        if violation is not None:
            found.append(violation)
    return found


def is_static(rule) -> bool:
    """Rules that shapes and dtypes can decide; the others need values (runtime mode)."""
    return getattr(rule, "STATIC", True)


def is_runtime(rule) -> bool:
    """Rules the runtime mode reports (it sees the family's calls, not later arithmetic)."""
    return getattr(rule, "RUNTIME", True)

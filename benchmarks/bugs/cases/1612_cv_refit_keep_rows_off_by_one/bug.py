import torch


def select_refit_windows(fcsts: torch.Tensor, n_series: int, h: int, step_size: int) -> torch.Tensor:
    """Keep the cross-validation forecasts produced at the refit cut-offs.

    Args:
        fcsts (`torch.Tensor` of shape `(n_windows * n_series * h, n_models)`):
            Stacked forecasts; each consecutive block of `h` rows is one (window, series) horizon.
        n_series (`int`): Number of series per window.
        h (`int`): Forecast horizon.
        step_size (`int`): Keep one block out of every `step_size`, counted from the last one.

    Returns:
        `torch.Tensor` of shape `(n_kept * h, n_models)`.
    """
    n_windows = fcsts.shape[0] // (n_series * h)
    n_blocks = n_series * n_windows
    block_ends = torch.arange(n_blocks, 0, -step_size).flip(0)      # 1-based block numbers
    offsets = block_ends.repeat_interleave(h) * h                   # end row (exclusive) of each kept block
    horizons = -torch.arange(h).flip(0).repeat(block_ends.numel())
    keep_rows = offsets + horizons
    return fcsts.index_select(0, keep_rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    n_series, n_windows, h, n_models = 3, 4, 5, 2
    fcsts = torch.randn(n_windows * n_series * h, n_models)
    kept = select_refit_windows(fcsts, n_series, h, step_size=2)
    print(kept.shape)

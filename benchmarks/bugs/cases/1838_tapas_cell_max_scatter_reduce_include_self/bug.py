import torch
from jaxtyping import Float, Int
from torch import Tensor


def segment_max(
    values: Float[Tensor, "batch tokens"],
    segment_ids: Int[Tensor, "batch tokens"],
    num_segments: int,
) -> Float[Tensor, "batch segments"]:
    """Maximum of the token values of every table cell (torch replacement for torch_scatter.scatter_max)."""
    out = torch.zeros(values.size(0), num_segments, dtype=values.dtype)
    return out.scatter_reduce(1, segment_ids, values, reduce="amax")


def cell_selection_logits(
    token_logprobs: Float[Tensor, "batch tokens"],
    cell_ids: Int[Tensor, "batch tokens"],
    num_cells: int,
) -> Float[Tensor, "batch cells"]:
    """Cell score = best token log-probability inside the cell."""
    return segment_max(token_logprobs, cell_ids, num_cells)


def gather_token_scores(
    cell_scores: Float[Tensor, "batch cells"], cell_ids: Int[Tensor, "batch tokens"]
) -> Float[Tensor, "batch tokens"]:
    """Broadcast every cell score back to the tokens of that cell."""
    return cell_scores.gather(1, cell_ids)


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, num_tokens, num_cells = 2, 12, 4
    token_logits = torch.randn(batch, num_tokens)
    token_logprobs = torch.log_softmax(token_logits, dim=-1)
    cell_ids = torch.arange(num_tokens).repeat(batch, 1) % num_cells
    cell_scores = cell_selection_logits(token_logprobs, cell_ids, num_cells)
    token_scores = gather_token_scores(cell_scores, cell_ids)
    print("cell scores:", cell_scores)
    print("best cell per example:", cell_scores.argmax(-1).tolist())

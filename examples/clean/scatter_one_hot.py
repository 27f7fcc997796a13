"""One-hot targets and per-segment sums with scatter."""
import torch


def one_hot(labels, num_classes: int):
    """labels: [B] class ids."""
    out = torch.zeros(labels.size(0), num_classes)
    return out.scatter_(1, labels.unsqueeze(1), 1.0)


def segment_sum(x, segment_ids, num_segments: int):
    """
    Args:
        x: node features of shape [N, D].
        segment_ids: segment of each node, shape [N].
    """
    out = torch.zeros(num_segments, x.size(1), dtype=x.dtype)
    out.index_add_(0, segment_ids, x)
    return out.scatter_add(0, segment_ids.view(-1, 1).expand_as(x), x)

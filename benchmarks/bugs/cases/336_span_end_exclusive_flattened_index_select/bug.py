import torch
import torch.nn as nn


def flatten_and_batch_shift_indices(indices, sequence_length):
    """
    Args:
        indices: `torch.LongTensor` of shape (batch_size, num_spans), positions in [0, sequence_length).
        sequence_length: size of the sequence dimension of the target.

    Returns:
        `torch.LongTensor` of shape (batch_size * num_spans,) indexing the flattened target.
    """
    offsets = torch.arange(indices.size(0)) * sequence_length
    return (indices + offsets.unsqueeze(1)).view(-1)


def batched_index_select(target, indices):
    """
    Args:
        target: (batch_size, sequence_length, embedding_size)
        indices: (batch_size, num_spans)

    Returns:
        (batch_size, num_spans, embedding_size)
    """
    flat_indices = flatten_and_batch_shift_indices(indices, target.size(1))
    flat_target = target.reshape(-1, target.size(-1))
    return flat_target.index_select(0, flat_indices).view(*indices.size(), target.size(-1))


class EndpointSpanExtractor(nn.Module):
    def forward(self, sequence_tensor, span_indices):
        """
        Args:
            sequence_tensor: (batch_size, sequence_length, embedding_dim)
            span_indices: (batch_size, num_spans, 2), inclusive [start, end] token positions.

        Returns:
            (batch_size, num_spans, 2 * embedding_dim)
        """
        span_starts, span_ends = span_indices[..., 0], span_indices[..., 1]
        start_embeddings = batched_index_select(sequence_tensor, span_starts)
        end_embeddings = batched_index_select(sequence_tensor, span_ends)
        return torch.cat([start_embeddings, end_embeddings], dim=-1)


def read_entity_spans(token_offsets):
    """Convert the annotator's python-style (start, stop) token slices to span indices."""
    return torch.tensor([[[start, stop] for start, stop in doc] for doc in token_offsets])


if __name__ == "__main__":
    torch.manual_seed(0)
    encoded = torch.randn(3, 6, 4)
    annotations = [[(0, 2), (3, 6)], [(1, 4), (4, 6)], [(0, 1), (2, 5)]]
    spans = read_entity_spans(annotations)
    span_reprs = EndpointSpanExtractor()(encoded, spans)
    print("doc 0, span (3, 6): end embedding", span_reprs[0, 1, 4:].tolist())
    print("doc 0, token 5:                  ", encoded[0, 5].tolist())

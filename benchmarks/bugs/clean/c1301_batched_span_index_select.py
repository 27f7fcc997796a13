import torch


def get_range_vector(size: int, device: torch.device) -> torch.Tensor:
    return torch.arange(0, size, dtype=torch.long, device=device)


def flatten_and_batch_shift_indices(indices: torch.Tensor, sequence_length: int) -> torch.Tensor:
    # indices shape: (batch_size, d_1, ..., d_n), values in [0, sequence_length)
    if torch.max(indices) >= sequence_length or torch.min(indices) < 0:
        raise ValueError(f"All elements in indices should be in range (0, {sequence_length - 1})")
    # shape: (batch_size,)
    offsets = get_range_vector(indices.size(0), indices.device) * sequence_length
    for _ in range(len(indices.size()) - 1):
        offsets = offsets.unsqueeze(1)
    # shape: (batch_size * d_1 * ... * d_n,)
    return (indices + offsets).view(-1)


def batched_index_select(target: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    # target shape: (batch_size, sequence_length, embedding_size)
    # indices shape: (batch_size, num_spans, 2)
    flattened_indices = flatten_and_batch_shift_indices(indices, target.size(1))
    # shape: (batch_size * sequence_length, embedding_size)
    flattened_target = target.view(-1, target.size(-1))
    # shape: (batch_size * num_spans * 2, embedding_size)
    flattened_selected = flattened_target.index_select(0, flattened_indices)
    # shape: (batch_size, num_spans, 2, embedding_size)
    return flattened_selected.view(*indices.size(), target.size(-1))


def span_endpoint_gather(target: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    # same endpoints through gather: index (batch_size, num_spans * 2, embedding_size)
    batch_size, num_spans, _ = indices.shape
    flat = indices.reshape(batch_size, num_spans * 2, 1).expand(-1, -1, target.size(-1))
    return target.gather(1, flat).view(batch_size, num_spans, 2, target.size(-1))


if __name__ == "__main__":
    torch.manual_seed(0)
    sequence_output = torch.randn(3, 10, 6)  # (batch_size, sequence_length, embedding_size)
    starts = torch.randint(0, 10, (3, 4))
    widths = torch.randint(0, 3, (3, 4))
    ends = (starts + widths).clamp(max=9)  # inclusive span ends
    span_indices = torch.stack([starts, ends], dim=-1)  # (batch_size, num_spans, 2)

    selected = batched_index_select(sequence_output, span_indices)
    gathered = span_endpoint_gather(sequence_output, span_indices)
    ref = torch.empty(3, 4, 2, 6)
    for b in range(3):
        for s in range(4):
            for e in range(2):
                ref[b, s, e] = sequence_output[b, span_indices[b, s, e]]
    assert torch.equal(selected, ref)
    assert torch.equal(gathered, ref)
    print("ok")

import torch


def reorder_past(past, beam_idx):
    """Reorder the cached keys/values after a beam-search step.

    Args:
        past: tuple with one tensor per layer, each of shape
            (2, batch_size * num_beams, num_heads, seq_len, head_dim); index 0 holds keys, 1 values.
        beam_idx: (batch_size * num_beams,) source row of every surviving beam.

    Returns:
        tuple of tensors with the same shapes, rows permuted by beam_idx.
    """
    return tuple(layer_past.index_select(1, beam_idx) for layer_past in past)


def init_past(num_layers, batch_size, num_beams, num_heads, seq_len, head_dim):
    return tuple(
        torch.randn(2, batch_size * num_beams, num_heads, seq_len, head_dim) for _ in range(num_layers)
    )


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, num_beams = 2, 3
    past = init_past(num_layers=2, batch_size=batch_size, num_beams=num_beams, num_heads=4, seq_len=5, head_dim=8)
    # beams of each sentence may only come from that sentence's rows
    beam_idx = torch.tensor([0, 0, 2, 5, 3, 3])
    new_past = reorder_past(past, beam_idx)
    for layer, (old, new) in enumerate(zip(past, new_past)):
        for row, src in enumerate(beam_idx.tolist()):
            assert torch.equal(new[:, row], old[:, src]), (layer, row)
    print("ok")

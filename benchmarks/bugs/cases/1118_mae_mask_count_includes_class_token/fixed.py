import torch
import torch.nn as nn


def random_token_mask(batch_size, seq_len, mask_ratio, generator=None):
    """Randomly split token positions into kept and masked positions.

    Args:
        batch_size: Number of sequences.
        seq_len: Sequence length, including the class token at position 0.
        mask_ratio: Fraction of tokens to mask. The class token is never masked.

    Returns:
        Tuple ``(idx_keep, idx_mask)`` of LongTensors with shapes
        ``(batch_size, num_keep)`` and ``(batch_size, num_mask)``; ``idx_keep``
        starts with the class token.
    """
    num_mask = int((seq_len - 1) * mask_ratio)  # the class token is not part of the ratio
    noise = torch.rand(batch_size, seq_len - 1, generator=generator)
    order = noise.argsort(dim=1) + 1
    idx_mask = order[:, :num_mask]
    idx_keep = torch.cat([torch.zeros(batch_size, 1, dtype=torch.long), order[:, num_mask:]], dim=1)
    return idx_keep, idx_mask


class MAEDecoderInput(nn.Module):
    """Rebuilds the full token sequence for the decoder.

    Args:
        num_patches: Number of image patches (class token excluded).
        dim: Token width.
        mask_ratio: Fraction of patches that were masked.
    """

    def __init__(self, num_patches, dim, mask_ratio):
        super().__init__()
        self.seq_len = num_patches + 1
        self.num_masked = int(num_patches * mask_ratio)
        self.mask_token = nn.Parameter(torch.zeros(1, 1, dim))

    def forward(self, x_encoded, idx_keep, idx_mask):
        """
        Args:
            x_encoded: Encoder output of shape (batch, num_keep, dim).
            idx_keep: Kept positions, shape (batch, num_keep).
            idx_mask: Masked positions, shape (batch, num_mask).
        Returns:
            Tensor of shape (batch, seq_len, dim).
        """
        b, _, d = x_encoded.shape
        out = x_encoded.new_zeros(b, self.seq_len, d)
        out.scatter_(1, idx_keep.unsqueeze(-1).expand(-1, -1, d), x_encoded)
        mask_tokens = self.mask_token.expand(b, self.num_masked, d)
        out.scatter_(1, idx_mask.unsqueeze(-1).expand(-1, -1, d), mask_tokens)
        return out


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(0)
    num_patches, dim, ratio = 16, 8, 0.8
    tokens = torch.randn(2, num_patches + 1, dim, generator=gen)
    idx_keep, idx_mask = random_token_mask(2, num_patches + 1, ratio, generator=gen)
    x_vis = torch.gather(tokens, 1, idx_keep.unsqueeze(-1).expand(-1, -1, dim))
    encoder = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=16, batch_first=True).eval()
    decoder_input = MAEDecoderInput(num_patches, dim, ratio)
    with torch.no_grad():
        full = decoder_input(encoder(x_vis), idx_keep, idx_mask)
    print("decoder input:", tuple(full.shape))

    # loop reference
    with torch.no_grad():
        enc = encoder(x_vis)
    assert idx_mask.size(1) == decoder_input.num_masked
    for b in range(2):
        for j, pos in enumerate(idx_keep[b].tolist()):
            assert torch.allclose(full[b, pos], enc[b, j])
        for pos in idx_mask[b].tolist():
            assert torch.allclose(full[b, pos], torch.zeros(dim))
        assert sorted(idx_keep[b].tolist() + idx_mask[b].tolist()) == list(range(num_patches + 1))
    print("ok")

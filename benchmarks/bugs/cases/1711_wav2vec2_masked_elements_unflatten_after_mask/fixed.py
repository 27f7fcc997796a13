import torch
from torch import Tensor


def compute_row_mask(batch_size: int, seq_len: int, num_masked: int, generator: torch.Generator) -> Tensor:
    # (N, S) boolean mask with exactly num_masked True entries per row
    scores = torch.rand(batch_size, seq_len, generator=generator)
    idx = scores.topk(num_masked, dim=1).indices
    return torch.zeros(batch_size, seq_len, dtype=torch.bool).scatter_(1, idx, True)


def extract_masked_elements(seqs: Tensor, temporal_mask: Tensor) -> Tensor:
    batch_size = seqs.size(0)

    # keep only masked steps: (N, S, M) -> (N*T, M)
    seqs = seqs[temporal_mask]

    # regroup per utterance: (N*T, M) -> (N, T, M)
    return seqs.unflatten(0, (batch_size, -1))


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    features = torch.randn(4, 20, 16)  # (N, S, M) feature-extractor output
    encoder_out = torch.randn(4, 20, 16)  # (N, S, M) context network output
    temporal_mask = compute_row_mask(4, 20, num_masked=6, generator=g)
    targets = extract_masked_elements(features, temporal_mask)  # (N, T, M)
    preds = extract_masked_elements(encoder_out, temporal_mask)  # (N, T, M)
    per_utt_sim = torch.cosine_similarity(preds, targets, dim=-1).mean(dim=1)  # (N)
    ref = torch.stack([
        torch.stack([torch.cosine_similarity(encoder_out[n, s], features[n, s], dim=0)
                     for s in range(20) if temporal_mask[n, s]]).mean()
        for n in range(4)
    ])
    assert targets.shape == (4, 6, 16)
    assert torch.allclose(per_utt_sim, ref, atol=1e-5)
    print("ok")

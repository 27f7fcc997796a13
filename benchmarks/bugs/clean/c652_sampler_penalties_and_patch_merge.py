import torch
import torch.nn.functional as F


def repetition_penalty(logits, prev_ids, penalty):
    # logits: [B, V], prev_ids: [B, L] (duplicates allowed; scatter writes the same value again)
    score = torch.gather(logits, 1, prev_ids)
    score = torch.where(score < 0, score * penalty, score / penalty)
    return logits.scatter(1, prev_ids, score)


def occurrence_counts(prev_ids, vocab_size):
    # prev_ids: [B, L] right-padded with vocab_size -> counts: [B, V]
    counts = torch.zeros(prev_ids.size(0), vocab_size + 1, dtype=torch.long)
    counts.scatter_add_(1, prev_ids, torch.ones_like(prev_ids))
    return counts[:, :vocab_size]


def merge_patches(input_ids, text_embeds, patch_embeds, pad_id):
    # input_ids: [T], text_embeds: [T, D], patch_embeds: [P, D]
    positions = (input_ids == pad_id).nonzero().squeeze(-1)
    if positions.numel() != patch_embeds.size(0):
        raise ValueError(f"{positions.numel()} placeholders for {patch_embeds.size(0)} patch embeddings")
    index = positions.unsqueeze(-1).expand(-1, text_embeds.size(-1))
    return text_embeds.scatter(0, index, patch_embeds)


def confusion(target_u8, pred, n):
    # target_u8: [H, W] uint8 mask with 255 = void, pred: [H, W] int64
    keep = target_u8 < n
    flat = n * target_u8[keep].long() + pred[keep]
    mat = torch.zeros(n * n, dtype=torch.long)
    mat.index_put_((flat,), torch.ones_like(flat), accumulate=True)
    return mat.view(n, n)


if __name__ == "__main__":
    torch.manual_seed(0)
    V = 12
    logits = torch.randn(2, V)
    prev = torch.tensor([[3, 3, 5, 12, 12], [0, 7, 7, 7, 1]])
    rp = repetition_penalty(logits, prev.clamp_max(V - 1), 1.3)
    for b in range(2):
        seen = set(prev[b].clamp_max(V - 1).tolist())
        for v in range(V):
            x = logits[b, v].item()
            ref = (x * 1.3 if x < 0 else x / 1.3) if v in seen else x
            assert abs(rp[b, v].item() - ref) < 1e-6

    counts = occurrence_counts(prev, V)
    for b in range(2):
        for v in range(V):
            assert counts[b, v].item() == prev[b].tolist().count(v)

    ids = torch.tensor([5, 9, 9, 9, 6, 9, 2])
    text = torch.randn(7, 4)
    patches = torch.randn(4, 4)
    merged = merge_patches(ids, text, patches, pad_id=9)
    k = 0
    for t in range(7):
        if ids[t] == 9:
            assert torch.equal(merged[t], patches[k])
            k += 1
        else:
            assert torch.equal(merged[t], text[t])

    target = torch.randint(0, 21, (16, 16)).to(torch.uint8)
    target[0] = 255
    pred = torch.randint(0, 21, (16, 16))
    cm = confusion(target, pred, 21)
    ref = [[0] * 21 for _ in range(21)]
    for t, p in zip(target.flatten().tolist(), pred.flatten().tolist()):
        if t < 21:
            ref[t][p] += 1
    assert cm.tolist() == ref
    assert F.one_hot(pred.flatten(), 21).sum(0).sum().item() == 256
    print("ok")

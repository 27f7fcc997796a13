import torch
import torch.nn.functional as F


def topk_allowed_mask(topk_idx, n_pool):
    # topk_idx: [B, S, K] with -1 for unused slots -> allowed: [B, S, P]
    b, s, _ = topk_idx.shape
    padded = torch.zeros(b, s, n_pool + 1, dtype=torch.bool)
    slot = torch.where(topk_idx >= 0, topk_idx, torch.full_like(topk_idx, n_pool))
    padded.scatter_(-1, slot, True)
    return padded[..., :n_pool]


def pool_pieces(piece_repr, word_of_piece, n_words):
    # piece_repr: [B, P, H], word_of_piece: [P] (repeats allowed) -> [B, W, H]
    out = piece_repr.new_zeros(piece_repr.shape[0], n_words, piece_repr.shape[2])
    return out.index_add_(1, word_of_piece, piece_repr)


def update_bank(bank, ptr, keys):
    # bank: [K, D], keys: [N, D] with the same D
    slots = (ptr + torch.arange(keys.shape[0])) % bank.shape[0]
    bank.index_copy_(0, slots, keys)
    return (ptr + keys.shape[0]) % bank.shape[0]


def target_logprob(logits, labels, ignore_index=-100):
    # logits: [B, C], labels: [B] -> [B]
    safe = labels.masked_fill(labels == ignore_index, 0)
    lp = F.log_softmax(logits, dim=-1).gather(1, safe.unsqueeze(1)).squeeze(1)
    return lp.masked_fill(labels == ignore_index, 0.0)


if __name__ == "__main__":
    torch.manual_seed(0)
    topk = torch.tensor([[[0, -1, -1], [1, 0, -1], [2, 1, 0]]])
    allowed = topk_allowed_mask(topk, 4)
    for t in range(3):
        chosen = {int(i) for i in topk[0, t] if int(i) >= 0}
        for p in range(4):
            assert bool(allowed[0, t, p]) == (p in chosen)

    pieces = torch.randn(2, 6, 5)
    word_of_piece = torch.tensor([0, 0, 1, 2, 2, 2])
    words = pool_pieces(pieces, word_of_piece, 3)
    for b in range(2):
        for w in range(3):
            ref = sum(pieces[b, p] for p in range(6) if int(word_of_piece[p]) == w)
            assert torch.allclose(words[b, w], ref, atol=1e-6)

    bank = torch.zeros(5, 4)
    keys = torch.randn(3, 4)
    ptr = update_bank(bank, 4, keys)
    for i in range(3):
        assert torch.equal(bank[(4 + i) % 5], keys[i])
    assert ptr == 2

    logits = torch.randn(4, 6)
    labels = torch.tensor([2, -100, 5, 0])
    lp = target_logprob(logits, labels)
    for i in range(4):
        y = int(labels[i])
        expected = 0.0 if y == -100 else float(logits[i, y] - torch.logsumexp(logits[i], 0))
        assert abs(float(lp[i]) - expected) < 1e-5
    print("ok")

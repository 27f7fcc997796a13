import torch
from jaxtyping import Float, Int


def select_beam_items(
    x: Float[torch.Tensor, "batch beam hidden"],
    ids: Int[torch.Tensor, "batch beam"],
) -> Float[torch.Tensor, "batch beam hidden"]:
    hidden = x.size(-1)
    index = ids.unsqueeze(-1).expand(-1, -1, hidden)
    return torch.gather(x, 1, index)


def beam_step(
    log_probs: Float[torch.Tensor, "batch beam vocab"],
    total_scores: Float[torch.Tensor, "batch beam"],
    prev_embedding: Float[torch.Tensor, "batch beam hidden"],
    beam_size: int,
):
    batch, beam, vocab = log_probs.shape
    cand = (total_scores.unsqueeze(-1) + log_probs).view(batch, beam * vocab)
    k_scores, k_ids = torch.topk(cand, beam_size, dim=-1)
    back_ptrs = torch.div(k_ids, vocab, rounding_mode="floor")
    k_words = torch.remainder(k_ids, vocab)
    new_embedding = select_beam_items(prev_embedding, back_ptrs)
    return k_scores, k_words, back_ptrs, new_embedding


if __name__ == "__main__":
    torch.manual_seed(0)
    B, K, V, H = 2, 3, 11, 5
    log_probs = torch.log_softmax(torch.randn(B, K, V), dim=-1)
    scores = torch.randn(B, K)
    emb = torch.randn(B, K, H)
    k_scores, k_words, back_ptrs, new_emb = beam_step(log_probs, scores, emb, K)
    for b in range(B):
        flat = (scores[b].unsqueeze(-1) + log_probs[b]).view(-1).tolist()
        order = sorted(range(len(flat)), key=lambda j: -flat[j])[:K]
        for r, j in enumerate(order):
            assert back_ptrs[b, r].item() == j // V and k_words[b, r].item() == j % V
            assert torch.equal(new_emb[b, r], emb[b, j // V])
    print("ok")

import torch
import torch.nn.functional as F


def top_k_top_p_filtering(logits, top_k=0, top_p=0.0, filter_value=-float("inf")):
    if top_k > 0:
        indices_to_remove = logits < torch.topk(logits, top_k)[0][..., -1, None]
        logits[indices_to_remove] = filter_value
    if top_p > 0.0:
        sorted_logits, sorted_indices = torch.sort(logits, descending=True)
        cumulative_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
        sorted_indices_to_remove = cumulative_probs > top_p
        sorted_indices_to_remove[..., 1:] = sorted_indices_to_remove[..., :-1].clone()
        sorted_indices_to_remove[..., 0] = False
        indices_to_remove = sorted_indices[sorted_indices_to_remove]
        logits[:, indices_to_remove] = filter_value
    return logits


def sample_next_tokens(lm_head, hidden, temperature=0.8, top_p=0.9, generator=None):
    logits = lm_head(hidden) / temperature
    filtered = top_k_top_p_filtering(logits, top_p=top_p)
    probs = F.softmax(filtered, dim=-1)
    return torch.multinomial(probs, 1, generator=generator), filtered


if __name__ == "__main__":
    torch.manual_seed(0)
    lm_head = torch.nn.Linear(16, 12)
    hidden = torch.randn(3, 16) * 2.0
    with torch.no_grad():
        filtered = top_k_top_p_filtering(lm_head(hidden) / 0.8, top_p=0.9)
    print("tokens kept per sequence:", torch.isfinite(filtered).sum(-1).tolist())
    print("kept token ids, sequence 0:", torch.isfinite(filtered[0]).nonzero().flatten().tolist())

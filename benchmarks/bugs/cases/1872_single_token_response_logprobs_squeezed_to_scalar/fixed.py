import torch
import torch.nn as nn


def score_tokens(logits, tokens, temperature=1.0):
    # logits: [R, V] for the R response positions, tokens: [R]
    logp = (logits.float() / temperature).log_softmax(dim=-1)  # [R, V]
    return logp.gather(-1, tokens.unsqueeze(-1)).squeeze(-1)  # [R]


def get_response_log_probs(packed_logits, packed_tokens, response_lengths, temperature=1.0):
    # packed_logits: [sum(R), V], packed_tokens: [sum(R)], one entry per response token
    per_response = []
    offset = 0
    for length in response_lengths:
        logits = packed_logits[offset : offset + length]  # [R, V]
        tokens = packed_tokens[offset : offset + length]  # [R]
        log_probs = score_tokens(logits, tokens, temperature)  # [R]
        per_response.append(log_probs.reshape(-1))  # [R] whether the scorer returned [R] or [R, 1]
        offset += length
    return torch.cat(per_response, dim=0)  # [sum(R)]


def grpo_loss(log_probs, old_log_probs, advantages, clip_eps=0.2):
    # all inputs: [sum(R)] token-level
    ratio = (log_probs - old_log_probs).exp()
    clipped = ratio.clamp(1 - clip_eps, 1 + clip_eps)
    return -torch.min(ratio * advantages, clipped * advantages).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = 50
    lm_head = nn.Linear(16, vocab)
    response_lengths = [4, 1, 3]
    hidden = torch.randn(sum(response_lengths), 16)  # [8, 16]
    tokens = torch.randint(0, vocab, (sum(response_lengths),))  # [8]
    packed_logits = lm_head(hidden)  # [8, 50]
    log_probs = get_response_log_probs(packed_logits, tokens, response_lengths)
    loss = grpo_loss(log_probs, log_probs.detach() - 0.05, torch.randn(log_probs.shape[0]))
    loss.backward()
    ref = []
    for i in range(hidden.shape[0]):
        row = packed_logits[i].detach().log_softmax(-1)
        ref.append(row[tokens[i].item()].item())
    assert log_probs.shape == (8,)
    assert torch.allclose(log_probs.detach(), torch.tensor(ref), atol=1e-6)
    assert torch.isfinite(loss)
    print("ok")

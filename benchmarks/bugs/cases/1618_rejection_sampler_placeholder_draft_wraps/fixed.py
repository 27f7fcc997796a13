import torch
from jaxtyping import Bool, Float, Int
from torch import Tensor

PLACEHOLDER_TOKEN_ID = -1  # padded / grammar-invalid draft slots


def accept_draft_tokens(
    draft_token_ids: Int[Tensor, "num_tokens"],
    draft_probs: Float[Tensor, "num_tokens vocab"],
    target_probs: Float[Tensor, "num_tokens vocab"],
    uniform: Float[Tensor, "num_tokens"],
) -> Bool[Tensor, "num_tokens"]:
    """Modified rejection sampling: accept draft token x with probability min(1, q(x) / p(x))."""
    rows = torch.arange(draft_token_ids.shape[0], device=draft_token_ids.device)
    valid = draft_token_ids >= 0
    safe_ids = draft_token_ids.clamp(min=0)  # never index the probabilities with a placeholder id
    p_draft = draft_probs[rows, safe_ids]
    q_target = target_probs[rows, safe_ids]
    return valid & (uniform * p_draft <= q_target)


def recovered_tokens(
    draft_probs: Float[Tensor, "num_tokens vocab"], target_probs: Float[Tensor, "num_tokens vocab"]
) -> Int[Tensor, "num_tokens"]:
    residual = (target_probs - draft_probs).clamp(min=0)
    return residual.argmax(dim=-1)


def rejection_sample(
    draft_token_ids: Int[Tensor, "num_reqs num_spec"],
    draft_probs: Float[Tensor, "num_reqs num_spec vocab"],
    target_probs: Float[Tensor, "num_reqs num_spec vocab"],
    uniform: Float[Tensor, "num_reqs num_spec"],
) -> list[list[int]]:
    num_reqs, num_spec, vocab = draft_probs.shape
    accepted = accept_draft_tokens(
        draft_token_ids.reshape(-1),
        draft_probs.reshape(-1, vocab),
        target_probs.reshape(-1, vocab),
        uniform.reshape(-1),
    ).view(num_reqs, num_spec)
    recovered = recovered_tokens(draft_probs.reshape(-1, vocab), target_probs.reshape(-1, vocab))
    recovered = recovered.view(num_reqs, num_spec)
    out = []
    for r in range(num_reqs):
        tokens = []
        for s in range(num_spec):
            if bool(accepted[r, s]):
                tokens.append(int(draft_token_ids[r, s]))
            else:
                tokens.append(int(recovered[r, s]))
                break
        out.append(tokens)
    return out


def make_batch(vocab=16, num_spec=3, eos_id=15):
    g = torch.Generator().manual_seed(0)
    draft_logits = torch.randn(2, num_spec, vocab, generator=g)
    target_logits = torch.randn(2, num_spec, vocab, generator=g)
    # the target model wants to finish request 1 at its last step
    target_logits[1, 2, eos_id] += 8.0
    draft_probs, target_probs = draft_logits.softmax(-1), target_logits.softmax(-1)
    draft_ids = draft_probs.argmax(-1)
    target_probs[0] = draft_probs[0]  # request 0: the draft is perfect
    target_probs[1, :2] = draft_probs[1, :2]
    draft_ids[1, 2] = PLACEHOLDER_TOKEN_ID  # request 1 only proposed two tokens
    uniform = torch.rand(2, num_spec, generator=g)
    return draft_ids, draft_probs, target_probs, uniform


if __name__ == "__main__":
    draft_ids, draft_probs, target_probs, uniform = make_batch()
    out = rejection_sample(draft_ids, draft_probs, target_probs, uniform)
    ref = []
    for r in range(draft_ids.shape[0]):
        tokens = []
        for s in range(draft_ids.shape[1]):
            x = int(draft_ids[r, s])
            if x >= 0 and float(uniform[r, s]) * float(draft_probs[r, s, x]) <= float(target_probs[r, s, x]):
                tokens.append(x)
                continue
            residual = [max(0.0, float(target_probs[r, s, v] - draft_probs[r, s, v])) for v in range(draft_probs.shape[-1])]
            tokens.append(max(range(len(residual)), key=residual.__getitem__))
            break
        ref.append(tokens)
    assert out == ref, (out, ref)
    assert all(t >= 0 for seq in out for t in seq)
    print("ok")

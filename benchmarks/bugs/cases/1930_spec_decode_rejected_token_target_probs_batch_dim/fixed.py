from dataclasses import dataclass

import torch


@dataclass
class DraftRequest:
    draft_tokens: list          # [num_draft] token ids proposed by the draft model
    py_draft_logits: torch.Tensor   # [num_draft, vocab] draft logits, one row per proposed token
    py_target_probs: torch.Tensor   # [1, num_draft + 1, vocab] target probs, leading request dim kept
    temperature: float = 1.0


def sample(logits, temperature, generator):
    # logits: [steps, vocab] -> tokens [steps], probs [steps, vocab]
    probs = torch.softmax(logits / temperature, dim=-1)
    tokens = torch.multinomial(probs, 1, generator=generator).squeeze(-1)
    return tokens, probs


def get_rejected_indices(draft_probs, target_probs, generator, draft_tokens):
    # draft_probs: [num_draft, vocab]; target_probs: [1, num_draft + 1, vocab]
    target_probs = target_probs.squeeze(0)                 # [num_draft + 1, vocab]
    rows = torch.arange(len(draft_tokens))
    p = draft_probs[rows, draft_tokens]                    # [num_draft]
    q = target_probs[:-1][rows, draft_tokens]              # [num_draft]
    accept_probs = torch.minimum(torch.ones_like(q), q / p)
    rand = torch.rand(accept_probs.shape, generator=generator)
    return (rand >= accept_probs).nonzero().squeeze(-1)    # [num_rejected]


def sample_rejected(draft_probs, target_probs, generator, num_accepted):
    last_draft = draft_probs[num_accepted]                 # [vocab]
    last_target = target_probs[0, num_accepted]            # [vocab], through the request dim
    new = last_target - last_draft
    new = torch.where(new > 0, new, 0.0)
    new_token = torch.multinomial(new, num_samples=1, generator=generator).squeeze(-1)
    return int(new_token.item())


def process_draft_tokens_rejection_sampling(request, generator):
    draft_tokens = torch.tensor(request.draft_tokens)
    _, draft_probs = sample(request.py_draft_logits, request.temperature, generator)
    target_probs = request.py_target_probs
    rejected_indices = get_rejected_indices(draft_probs, target_probs, generator, draft_tokens)
    if rejected_indices.numel() == 0:
        num_accepted = len(request.draft_tokens)
        bonus = torch.multinomial(target_probs[0, -1], 1, generator=generator)
        return request.draft_tokens + [int(bonus.item())]
    num_accepted = int(rejected_indices[0].item())
    new_token = sample_rejected(draft_probs, target_probs, generator, num_accepted)
    return request.draft_tokens[:num_accepted] + [new_token]


def make_request(vocab, drafts, reject_at):
    num_draft = len(drafts)
    draft_logits = torch.full((num_draft, vocab), -4.0)
    target = torch.full((num_draft + 1, vocab), 1e-3)
    for step, tok in enumerate(drafts):
        draft_logits[step, tok] = 4.0
        if step < reject_at:
            target[step, tok] = 10.0                       # target likes the draft: accepted
        else:
            target[step, tok] = 0.0                        # target never emits it: rejected
            target[step, (tok + 3) % vocab] = 10.0
    target = target / target.sum(-1, keepdim=True)
    return DraftRequest(drafts, draft_logits, target.unsqueeze(0))


def reference_tokens(drafts, draft_logits, target_probs, vocab):
    # accepted while target puts at least the draft's mass on the draft token; then the
    # only token where target - draft stays positive
    draft_probs = torch.softmax(draft_logits, dim=-1)
    target = target_probs[0]
    out = []
    for step, tok in enumerate(drafts):
        if target[step, tok] >= draft_probs[step, tok]:
            out.append(tok)
            continue
        residual = [max(0.0, float(target[step, v] - draft_probs[step, v])) for v in range(vocab)]
        out.append(max(range(vocab), key=lambda v: residual[v]))
        return out
    return out + [int(target[-1].argmax())]


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    for reject_at in (2, 1, 0, 3):
        request = make_request(vocab=12, drafts=[5, 7, 2, 9], reject_at=reject_at)
        got = process_draft_tokens_rejection_sampling(request, g)
        expected = reference_tokens(request.draft_tokens, request.py_draft_logits, request.py_target_probs, 12)
        assert got == expected, (reject_at, got, expected)
        assert len(got) == reject_at + 1
    print("ok")

import torch
import torch.nn.functional as F


def completion_logprobs(logits, input_ids, prompt_len):
    # logits: [B, L, V], input_ids: [B, L] -> [B, L - prompt_len]
    shifted = logits[:, prompt_len - 1:-1]                       # [B, C, V], position t predicts t + 1
    targets = input_ids[:, prompt_len:]                          # [B, C]
    return shifted.log_softmax(-1).gather(2, targets.unsqueeze(-1)).squeeze(-1)


def top_p_filter(logits, top_p):
    # logits: [N, V], top_p: [N]
    sorted_logits, sorted_idx = logits.sort(dim=-1, descending=True)        # [N, V]
    probs = sorted_logits.softmax(-1)
    mass_before = probs.cumsum(-1) - probs                                  # [N, V]
    remove = mass_before >= top_p.unsqueeze(-1)                             # [N, V]
    sorted_logits = sorted_logits.masked_fill(remove, float("-inf"))
    return torch.full_like(logits, float("-inf")).scatter(-1, sorted_idx, sorted_logits)


def last_item_state(hidden, lengths):
    # hidden: [B, T, H], lengths: [B] -> [B, H]
    index = (lengths - 1).view(-1, 1, 1).expand(-1, 1, hidden.size(-1))    # [B, 1, H]
    return hidden.gather(1, index).squeeze(1)


def bag_sum(table, flat_ids, counts):
    # table: [num_items, D], flat_ids: [sum(counts)], counts: [num_bags] -> [num_bags, D]
    offsets = torch.cat([counts.new_zeros(1), counts.cumsum(0)[:-1]])      # bag starts, first one is 0
    return F.embedding_bag(flat_ids, table, offsets, mode="sum")


def masked_token_ce(logits, labels):
    # logits: [B, L, V], labels: [B, L] with -100 on prompt and padding
    return F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1), ignore_index=-100)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, L, V, P = 2, 7, 11, 3
    logits = torch.randn(B, L, V)
    input_ids = torch.randint(0, V, (B, L))
    lp = completion_logprobs(logits, input_ids, P)
    for b in range(B):
        for t in range(P, L):
            ref = logits[b, t - 1].log_softmax(-1)[input_ids[b, t]]
            assert torch.allclose(lp[b, t - P], ref)

    top_p = torch.tensor([0.5, 0.9])
    filtered = top_p_filter(logits[:, -1], top_p)
    for b in range(B):
        probs = logits[b, -1].softmax(-1).tolist()
        order = sorted(range(V), key=lambda j: -probs[j])
        kept, mass = set(), 0.0
        for j in order:
            if mass >= top_p[b].item():
                break
            kept.add(j)
            mass += probs[j]
        for j in range(V):
            assert (filtered[b, j].item() != float("-inf")) == (j in kept)

    hidden = torch.randn(3, 5, 4)
    lengths = torch.tensor([5, 2, 3])
    last = last_item_state(hidden, lengths)
    for b in range(3):
        assert torch.equal(last[b], hidden[b, lengths[b] - 1])

    table = torch.randn(20, 4)
    counts = torch.tensor([2, 0, 3])
    flat_ids = torch.tensor([4, 7, 1, 1, 9])
    bags = bag_sum(table, flat_ids, counts)
    start = 0
    for i, c in enumerate(counts.tolist()):
        ref = table[flat_ids[start:start + c]].sum(0) if c else torch.zeros(4)
        assert torch.allclose(bags[i], ref)
        start += c

    labels = input_ids.clone()
    labels[:, :P] = -100
    loss = masked_token_ce(logits, labels)
    terms = [-logits[b, t - 1].log_softmax(-1)[labels[b, t]] for b in range(B) for t in range(P, L)]
    assert torch.allclose(loss, torch.stack(terms).mean())
    print("ok")

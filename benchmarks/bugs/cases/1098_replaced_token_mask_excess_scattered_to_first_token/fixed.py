import math

import torch


def get_mask_subset_with_prob(mask, prob):
    batch, seq_len = mask.shape
    max_masked = math.ceil(prob * seq_len)

    num_tokens = mask.sum(dim=-1, keepdim=True)
    mask_excess = mask.cumsum(dim=-1) > (num_tokens * prob).ceil()
    mask_excess = mask_excess[:, :max_masked]

    rand = torch.rand((batch, seq_len)).masked_fill(~mask, -1e9)
    _, sampled_indices = rand.topk(max_masked, dim=-1)
    sampled_indices = (sampled_indices + 1).masked_fill(mask_excess, 0)

    new_mask = torch.zeros((batch, seq_len + 1))
    new_mask.scatter_(-1, sampled_indices, 1.0)
    return new_mask[:, 1:].bool()


def pad_batch(seqs, pad_id=0):
    longest = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), longest), pad_id)
    for i, s in enumerate(seqs):
        ids[i, : len(s)] = torch.tensor(s)
    return ids, ids != pad_id


if __name__ == "__main__":
    torch.manual_seed(0)
    seqs = [torch.randint(5, 1000, (n,)).tolist() for n in (16, 9, 12, 6)]
    input_ids, attention_mask = pad_batch(seqs)
    torch.manual_seed(1)
    to_replace = get_mask_subset_with_prob(attention_mask, prob=0.25)
    expected = (attention_mask.sum(-1) * 0.25).ceil().long()
    print("tokens to replace per row:", to_replace.sum(-1).tolist(), "expected:", expected.tolist())

    # reference: redo the sampling with the same random draw and mark picks in a loop
    torch.manual_seed(1)
    rand = torch.rand(attention_mask.shape).masked_fill(~attention_mask, -1e9)
    order = rand.topk(math.ceil(0.25 * attention_mask.size(1)), dim=-1).indices
    for b in range(attention_mask.size(0)):
        ref = [False] * attention_mask.size(1)
        for j in range(int(expected[b])):
            ref[int(order[b, j])] = True
        assert to_replace[b].tolist() == ref, b
    print("ok")

import torch

TAGS = ["PAD", "B-PER", "I-PER", "B-LOC", "I-LOC", "O"]


def transition_counts(tag_seqs, num_tags):
    # tag_seqs: list of LongTensor [T_i]
    counts = torch.zeros(num_tags, num_tags)  # [from_tag, to_tag]
    for seq in tag_seqs:
        prev, nxt = seq[:-1], seq[1:]  # [T_i - 1] each
        counts.index_put_((prev, nxt), torch.ones(prev.numel()), accumulate=True)
    return counts


def transition_matrix(counts, alpha=0.1):
    # add-alpha smoothing; rows sum to 1: [num_tags, num_tags]
    smoothed = counts + alpha
    return smoothed / smoothed.sum(dim=1, keepdim=True)


def load_corpus(n_sentences=20, seed=0):
    g = torch.Generator().manual_seed(seed)
    seqs = []
    for _ in range(n_sentences):
        length = int(torch.randint(4, 12, (1,), generator=g))
        seqs.append(torch.randint(1, len(TAGS), (length,), generator=g))
    return seqs


def reference_counts(tag_seqs, num_tags):
    ref = [[0.0] * num_tags for _ in range(num_tags)]
    for seq in tag_seqs:
        s = seq.tolist()
        for a, b in zip(s[:-1], s[1:]):
            ref[a][b] += 1
    return torch.tensor(ref)


if __name__ == "__main__":
    corpus = load_corpus()
    counts = transition_counts(corpus, len(TAGS))
    ref = reference_counts(corpus, len(TAGS))
    assert torch.equal(counts, ref)
    assert torch.allclose(transition_matrix(counts), transition_matrix(ref))
    assert int(counts.sum().item()) == sum(len(s) - 1 for s in corpus)
    print("ok")

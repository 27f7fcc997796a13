import torch

TAGS = ["PAD", "B-PER", "I-PER", "B-LOC", "I-LOC", "O"]


def transition_counts(tag_seqs, num_tags):
    # tag_seqs: list of LongTensor [T_i]
    counts = torch.zeros(num_tags, num_tags)  # [from_tag, to_tag]
    for seq in tag_seqs:
        prev, nxt = seq[:-1], seq[1:]  # [T_i - 1] each
        counts[prev, nxt] += 1
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


if __name__ == "__main__":
    corpus = load_corpus()
    counts = transition_counts(corpus, len(TAGS))
    trans = transition_matrix(counts)
    n_transitions = sum(len(s) - 1 for s in corpus)
    print("transitions in corpus:", n_transitions)
    print("transitions counted:", int(counts.sum().item()))
    print("P(O -> O):", round(trans[5, 5].item(), 4))

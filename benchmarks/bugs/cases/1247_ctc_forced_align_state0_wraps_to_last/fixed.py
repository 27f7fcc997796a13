import torch

BLANK = 0


def insert_blank(labels, blank_id=BLANK):
    # labels: (L,) -> (2L + 1,) as [blank, y1, blank, y2, ..., blank]
    out = torch.full((2 * labels.numel() + 1,), blank_id, dtype=torch.long)
    out[1::2] = labels
    return out


def forced_align(log_probs, labels, blank_id=BLANK):
    # log_probs: (T, V) frame log-posteriors from the CTC head; labels: (L,) token ids
    states = insert_blank(labels, blank_id)  # (S,) with S = 2L + 1
    T, S = log_probs.size(0), states.numel()
    log_alpha = torch.full((T, S), float("-inf"))  # (T, S)
    back = torch.zeros((T, S), dtype=torch.long)  # (T, S) predecessor state
    log_alpha[0, 0] = log_probs[0, states[0]]
    log_alpha[0, 1] = log_probs[0, states[1]]

    for t in range(1, T):
        for s in range(S):
            if s == 0:
                cands = log_alpha[t - 1, s].unsqueeze(0)  # only stay: state 0 has no predecessor
                prev = [s]
            elif states[s] == blank_id or s < 2 or states[s] == states[s - 2]:
                cands = torch.stack([log_alpha[t - 1, s], log_alpha[t - 1, s - 1]])  # stay / advance
                prev = [s, s - 1]
            else:
                cands = torch.stack([log_alpha[t - 1, s], log_alpha[t - 1, s - 1], log_alpha[t - 1, s - 2]])
                prev = [s, s - 1, s - 2]
            best = int(torch.argmax(cands))
            log_alpha[t, s] = cands[best] + log_probs[t, states[s]]
            back[t, s] = prev[best]

    # a valid path ends in the last label or the trailing blank
    s = S - 1 if log_alpha[T - 1, S - 1] >= log_alpha[T - 1, S - 2] else S - 2
    path = [s]
    for t in range(T - 1, 0, -1):
        s = int(back[t, s])
        path.append(s)
    path.reverse()
    return states[torch.tensor(path)]  # (T,) token id per frame


def frame_log_probs(frame_tokens, vocab):
    # frame_tokens: list of the most likely token per frame -> (T, V) log-posteriors
    logits = torch.full((len(frame_tokens), vocab), -4.0)
    logits[torch.arange(len(frame_tokens)), torch.tensor(frame_tokens)] = 4.0
    return logits.log_softmax(-1)


if __name__ == "__main__":
    import itertools

    vocab = 5
    # the acoustic model hears token 3 twice, separated by silence; the transcript has it once
    log_probs = frame_log_probs([3, 3, 0, 0, 3, 3, 0, 0], vocab)
    labels = torch.tensor([3])
    alignment = forced_align(log_probs, labels)

    # reference: brute force over all frame-level paths that collapse to the transcript
    T = log_probs.size(0)
    best_score, best_path = float("-inf"), None
    allowed = [BLANK] + sorted(set(labels.tolist()))  # a path that collapses to the transcript uses only these
    for path in itertools.product(allowed, repeat=T):
        collapsed = [k for k, _ in itertools.groupby(path)]
        if [k for k in collapsed if k != BLANK] != labels.tolist():
            continue
        score = sum(float(log_probs[t, k]) for t, k in enumerate(path))
        if score > best_score:
            best_score, best_path = score, list(path)
    got = sum(float(log_probs[t, k]) for t, k in enumerate(alignment.tolist()))
    assert abs(got - best_score) < 1e-4, (alignment.tolist(), best_path)
    collapsed = torch.unique_consecutive(alignment)
    assert collapsed[collapsed != BLANK].tolist() == labels.tolist()
    print("ok")

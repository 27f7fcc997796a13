import torch


def insert_blank(label, blank_id=0):
    """Insert blank token between every two label tokens."""
    out = [blank_id]
    for tok in label.tolist():
        out += [tok, blank_id]
    return torch.tensor(out, dtype=torch.long)


def forced_align(ctc_probs: torch.Tensor, y: torch.Tensor, blank_id=0) -> list:
    """ctc forced alignment (viterbi)."""
    # ctc_probs: (T, vocab) log-probs, y: (L,)
    y_insert_blank = insert_blank(y, blank_id)  # (2L + 1,)
    T, S = ctc_probs.size(0), len(y_insert_blank)
    log_alpha = torch.full((T, S), -float("inf"))  # (T, 2L + 1)
    state_path = torch.zeros((T, S), dtype=torch.int16) - 1  # (T, 2L + 1)
    log_alpha[0, 0] = ctc_probs[0][y_insert_blank[0]]
    log_alpha[0, 1] = ctc_probs[0][y_insert_blank[1]]
    for t in range(1, T):
        for s in range(S):
            if y_insert_blank[s] == blank_id or s < 2 or y_insert_blank[s] == y_insert_blank[s - 2]:
                candidates = torch.tensor([log_alpha[t - 1, s], log_alpha[t - 1, s - 1] if s > 0 else -float("inf")])
                prev_state = [s, s - 1]
            else:
                candidates = torch.tensor([log_alpha[t - 1, s], log_alpha[t - 1, s - 1], log_alpha[t - 1, s - 2]])
                prev_state = [s, s - 1, s - 2]
            log_alpha[t, s] = torch.max(candidates) + ctc_probs[t][y_insert_blank[s]]
            state_path[t, s] = prev_state[torch.argmax(candidates)]
    state_seq = -1 * torch.ones((T, 1), dtype=torch.int16)
    candidates = torch.tensor([log_alpha[-1, S - 1], log_alpha[-1, S - 2]])
    state_seq[-1] = [S - 1, S - 2][torch.argmax(candidates)]
    for t in range(T - 2, -1, -1):
        state_seq[t] = state_path[t + 1, state_seq[t + 1, 0]]
    return [int(y_insert_blank[state_seq[t, 0]]) for t in range(T)]


def viterbi_reference(logp, y, blank=0):
    ext = [blank]
    for tok in y:
        ext += [tok, blank]
    T, S = len(logp), len(ext)
    ninf = -float("inf")
    alpha = [[ninf] * S for _ in range(T)]
    back = [[-1] * S for _ in range(T)]
    alpha[0][0], alpha[0][1] = logp[0][ext[0]], logp[0][ext[1]]
    for t in range(1, T):
        for s in range(S):
            prev = [p for p in (s, s - 1, s - 2) if p >= 0]
            if ext[s] == blank or s < 2 or ext[s] == ext[s - 2]:
                prev = [p for p in prev if p >= s - 1]
            best = max(prev, key=lambda p: (alpha[t - 1][p], -abs(p - s)))
            alpha[t][s] = alpha[t - 1][best] + logp[t][ext[s]]
            back[t][s] = best
    s = S - 1 if alpha[-1][S - 1] >= alpha[-1][S - 2] else S - 2
    path = [s]
    for t in range(T - 1, 0, -1):
        s = back[t][s]
        path.append(s)
    return [ext[s] for s in reversed(path)]


if __name__ == "__main__":
    frames = [3, 0, 0, 3, 3, 3, 0, 0]  # a stray early burst of token 3, then the real one
    ctc_probs = torch.full((len(frames), 5), -6.0)  # (T, vocab)
    for t, k in enumerate(frames):
        ctc_probs[t, k] = -0.05
    ctc_probs = ctc_probs.log_softmax(-1)
    y = torch.tensor([3])  # a one-token transcript
    ali = forced_align(ctc_probs, y)
    assert ali == viterbi_reference(ctc_probs.tolist(), y.tolist()), ali
    print("ok")

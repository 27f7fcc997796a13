import torch


def insert_blank(label, blank_id=0):
    label = label.unsqueeze(1)
    blanks = torch.full_like(label, blank_id)
    out = torch.cat([blanks, label], dim=1).reshape(-1)
    return torch.cat([out, out.new_tensor([blank_id])])


def forced_align(ctc_probs, y, blank_id=0):
    y_insert_blank = insert_blank(y, blank_id)
    num_frames, num_states = ctc_probs.size(0), len(y_insert_blank)
    log_alpha = torch.full((num_frames, num_states), -float("inf"))
    state_path = torch.zeros((num_frames, num_states), dtype=torch.int16) - 1
    log_alpha[0, 0] = ctc_probs[0][y_insert_blank[0]]
    log_alpha[0, 1] = ctc_probs[0][y_insert_blank[1]]
    for t in range(1, num_frames):
        for s in range(num_states):
            if y_insert_blank[s] == blank_id or s < 2 or y_insert_blank[s] == y_insert_blank[s - 2]:
                candidates = torch.tensor([log_alpha[t - 1, s], log_alpha[t - 1, s - 1] if s > 0 else -float("inf")])
                prev_state = [s, s - 1]
            else:
                candidates = torch.tensor([log_alpha[t - 1, s], log_alpha[t - 1, s - 1], log_alpha[t - 1, s - 2]])
                prev_state = [s, s - 1, s - 2]
            log_alpha[t, s] = torch.max(candidates) + ctc_probs[t][y_insert_blank[s]]
            state_path[t, s] = prev_state[torch.argmax(candidates)]
    state_seq = -1 * torch.ones((num_frames, 1), dtype=torch.int16)
    candidates = torch.tensor([log_alpha[-1, len(y_insert_blank) - 1], log_alpha[-1, len(y_insert_blank) - 2]])
    final_state = [len(y_insert_blank) - 1, len(y_insert_blank) - 2]
    state_seq[-1] = final_state[torch.argmax(candidates)]
    for t in range(num_frames - 2, -1, -1):
        state_seq[t] = state_path[t + 1, state_seq[t + 1, 0]]
    return [y_insert_blank[state_seq[t, 0]].item() for t in range(num_frames)]


def reference_align(logp, y, blank=0):
    ext = [blank]
    for tok in y:
        ext += [tok, blank]
    T, S, NEG = len(logp), len(ext), -float("inf")
    alpha = [[NEG] * S for _ in range(T)]
    back = [[-1] * S for _ in range(T)]
    alpha[0][0], alpha[0][1] = logp[0][ext[0]], logp[0][ext[1]]
    for t in range(1, T):
        for s in range(S):
            prev = [s] + ([s - 1] if s >= 1 else [])
            if s >= 2 and ext[s] != blank and ext[s] != ext[s - 2]:
                prev.append(s - 2)
            best = max(prev, key=lambda p: alpha[t - 1][p])
            alpha[t][s], back[t][s] = alpha[t - 1][best] + logp[t][ext[s]], best
    s = S - 1 if alpha[-1][S - 1] >= alpha[-1][S - 2] else S - 2
    path = [s]
    for t in range(T - 1, 0, -1):
        s = back[t][s]
        path.append(s)
    return [ext[s] for s in reversed(path)]


if __name__ == "__main__":
    torch.manual_seed(5)
    conf = {"num_frames": 12, "vocab_size": 6, "num_tokens": 3}
    ctc_probs = torch.randn(conf["num_frames"], conf["vocab_size"]).log_softmax(-1)
    y = torch.randint(1, conf["vocab_size"], (conf["num_tokens"],))
    got = forced_align(ctc_probs, y)
    ref = reference_align(ctc_probs.tolist(), y.tolist())
    assert got == ref
    print("ok")

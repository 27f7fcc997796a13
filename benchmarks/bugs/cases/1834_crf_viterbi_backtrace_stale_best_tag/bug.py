import itertools

import torch


def viterbi_decode(emissions, transitions):
    # emissions: [B, T, K] per-token tag scores, transitions: [K, K] score of tag i -> tag j
    batch_size, seq_len, num_tags = emissions.shape
    score = emissions[:, 0]  # [B, K]
    backpointers = []
    for t in range(1, seq_len):
        # [B, K, 1] + [K, K] -> [B, K_prev, K_next]
        next_score = score.unsqueeze(2) + transitions
        score, bptr_t = next_score.max(dim=1)  # [B, K], [B, K] best previous tag per next tag
        score = score + emissions[:, t]
        backpointers.append(bptr_t)
    best_score, best_tag = score.max(dim=1, keepdim=True)  # [B, 1]
    best_path = [best_tag]
    for bptr_t in reversed(backpointers):
        best_path.append(bptr_t.gather(1, best_tag))  # [B, 1]
    best_path.reverse()
    return best_score.squeeze(1), torch.cat(best_path, dim=1)  # [B], [B, T]


def path_score(emissions_b, transitions, tags):
    # emissions_b: [T, K], tags: list of T tag ids
    s = emissions_b[0][tags[0]]
    for t in range(1, len(tags)):
        s = s + transitions[tags[t - 1]][tags[t]] + emissions_b[t][tags[t]]
    return s


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, seq_len, num_tags = 6, 5, 4
    emissions = torch.randn(batch_size, seq_len, num_tags)  # [6, 5, 4]
    transitions = torch.randn(num_tags, num_tags)  # [4, 4]
    scores, paths = viterbi_decode(emissions, transitions)

    em, tr = emissions.tolist(), transitions.tolist()
    ref_paths, ref_scores = [], []
    for b in range(batch_size):
        best = max(itertools.product(range(num_tags), repeat=seq_len),
                   key=lambda tags: path_score(em[b], tr, tags))
        ref_paths.append(list(best))
        ref_scores.append(path_score(emissions[b], transitions, best))
    ref_paths = torch.tensor(ref_paths)
    decoded_scores = torch.stack([path_score(emissions[b], transitions, paths[b].tolist()) for b in range(batch_size)])
    print("sequences with a wrong decoded path:", int((paths != ref_paths).any(1).sum()), "of", batch_size)
    print("max |score of decoded path - best score|:", (decoded_scores - torch.stack(ref_scores)).abs().max().item())

import torch


class TourBeam:
    def __init__(self, batch_size, beam_size, num_nodes):
        self.beam_size = beam_size
        self.num_nodes = num_nodes
        self.scores = torch.zeros(batch_size, beam_size)
        self.mask = torch.ones(batch_size, beam_size, num_nodes)
        self.next_nodes = []

    def advance(self, trans_probs):
        beam_lk = trans_probs + self.scores.unsqueeze(2)
        beam_lk = beam_lk.masked_fill(self.mask == 0, -1e20)
        beam_lk = beam_lk.view(beam_lk.size(0), -1)
        best_scores, best_ids = beam_lk.topk(self.beam_size, 1, True, True)
        self.scores = best_scores
        prev_k = torch.div(best_ids, self.num_nodes, rounding_mode="floor")
        new_nodes = best_ids - prev_k * self.num_nodes
        self.next_nodes.append(new_nodes)
        perm = prev_k.unsqueeze(2).expand_as(self.mask)
        self.mask = self.mask.gather(1, perm)
        self.mask = self.mask.scatter(2, new_nodes.unsqueeze(2), 0)
        return new_nodes


if __name__ == "__main__":
    torch.manual_seed(0)
    B, K, N = 2, 3, 6
    beam = TourBeam(batch_size=B, beam_size=K, num_nodes=N)
    ref_scores = [[0.0] * K for _ in range(B)]
    ref_mask = [[[1.0] * N for _ in range(K)] for _ in range(B)]
    for step in range(3):
        probs = torch.randn(B, K, N).log_softmax(-1)
        picked = beam.advance(probs)
        for b in range(B):
            cands = []
            for i in range(K):
                for n in range(N):
                    s = probs[b, i, n].item() + ref_scores[b][i]
                    s = -1e20 if ref_mask[b][i][n] == 0 else s
                    cands.append((s, i * N + n))
            cands.sort(key=lambda t: -t[0])
            top = cands[:K]
            new_mask = []
            for j, (s, flat) in enumerate(top):
                i, n = flat // N, flat % N
                assert picked[b, j].item() == n
                row = list(ref_mask[b][i])
                row[n] = 0.0
                new_mask.append(row)
            ref_scores[b] = [s for s, _ in top]
            ref_mask[b] = new_mask
    assert beam.mask.tolist() == ref_mask
    print("ok")

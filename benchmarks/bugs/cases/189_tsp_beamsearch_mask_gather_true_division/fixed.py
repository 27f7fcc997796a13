import torch


class TSPBeamsearch:
    """Beam search over tours, one step = one more node, given edge probabilities."""

    def __init__(self, beam_size, batch_size, num_nodes, start_node=0):
        self.beam_size = beam_size
        self.batch_size = batch_size
        self.num_nodes = num_nodes
        self.start_nodes = torch.full((batch_size, beam_size), start_node, dtype=torch.long)  # (B, K)
        self.mask = torch.ones(batch_size, beam_size, num_nodes)  # (B, K, N), 1 = not visited yet
        self.mask.scatter_(2, self.start_nodes.unsqueeze(2), 0)
        self.scores = torch.zeros(batch_size, beam_size)  # (B, K)
        self.prev_Ks = []
        self.next_nodes = [self.start_nodes]

    def advance(self, trans_probs):
        # trans_probs: (B, K, N) probabilities of going to each node from the beam's current node
        beam_lk = trans_probs.log() + self.scores.unsqueeze(2)  # (B, K, N)
        if len(self.prev_Ks) == 0:
            beam_lk[:, 1:] = -1e20  # all beams are identical at the first step
        beam_lk = beam_lk.masked_fill(self.mask == 0, -1e20)
        flat = beam_lk.view(self.batch_size, -1)  # (B, K * N)
        best_scores, best_ids = flat.topk(self.beam_size, dim=1)  # (B, K)
        self.scores = best_scores
        prev_k = best_ids // self.num_nodes  # (B, K) beam each winner came from
        self.prev_Ks.append(prev_k)
        new_nodes = best_ids - prev_k * self.num_nodes  # (B, K)
        self.next_nodes.append(new_nodes)
        perm_mask = prev_k.unsqueeze(2).expand_as(self.mask)  # (B, K, N)
        self.mask = self.mask.gather(1, perm_mask)
        self.mask.scatter_(2, new_nodes.unsqueeze(2).long(), 0)

    def get_hypothesis(self, k):
        # k: (B,) beam to backtrack from
        hyp = []
        for j in range(len(self.prev_Ks) - 1, -1, -1):
            hyp.append(self.next_nodes[j + 1].gather(1, k.unsqueeze(1)).view(-1))
            k = self.prev_Ks[j].gather(1, k.unsqueeze(1)).view(-1)
        return torch.stack(hyp[::-1], dim=1)  # (B, N - 1)


def beam_tours(edge_probs, beam_size):
    # edge_probs: (B, N, N)
    B, N, _ = edge_probs.shape
    search = TSPBeamsearch(beam_size, B, N)
    for _ in range(N - 1):
        current = search.next_nodes[-1]  # (B, K)
        trans = edge_probs.gather(1, current.unsqueeze(2).expand(B, beam_size, N))  # (B, K, N)
        search.advance(trans)
    best = torch.zeros(B, dtype=torch.long)
    tours = search.get_hypothesis(best)
    return torch.cat([search.start_nodes[:, :1], tours], dim=1), search.scores[:, 0]


if __name__ == "__main__":
    torch.manual_seed(0)
    edge_probs = torch.softmax(torch.randn(2, 5, 5), dim=-1)
    tours, scores = beam_tours(edge_probs, beam_size=3)
    logp = edge_probs.log()
    for b in range(2):
        beams = [(0.0, [0])]
        for _ in range(4):
            cand = [(s + logp[b, p[-1], n].item(), p + [n]) for s, p in beams for n in range(5) if n not in p]
            beams = sorted(cand, key=lambda c: -c[0])[:3]
        assert tours[b].tolist() == beams[0][1]
        assert abs(scores[b].item() - beams[0][0]) < 1e-4
    print("ok")

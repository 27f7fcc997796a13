import torch


class TSPBeam:
    """Beam search over tours; one beam object handles a whole batch."""

    def __init__(self, beam_size, batch_size, num_nodes):
        self.beam_size = beam_size
        self.batch_size = batch_size
        self.num_nodes = num_nodes
        # visited-node mask, 1 = still available: [B, K, N]
        self.mask = torch.ones(batch_size, beam_size, num_nodes)
        self.scores = torch.zeros(batch_size, beam_size)  # [B, K]
        self.prev_ks = []
        self.next_nodes = []

    def advance(self, trans_probs):
        # trans_probs: [B, K, N] probabilities of moving to each node
        beam_lk = self.scores.unsqueeze(2) + trans_probs.log() * self.mask
        beam_lk = beam_lk.view(self.batch_size, -1)  # [B, K*N]
        best_scores, best_ids = beam_lk.topk(self.beam_size, 1, True, True)  # [B, K]
        self.scores = best_scores
        prev_k = best_ids / self.num_nodes  # [B, K] parent beam
        self.prev_ks.append(prev_k)
        new_nodes = best_ids - prev_k * self.num_nodes  # [B, K] chosen node
        self.next_nodes.append(new_nodes)
        # reorder the visited mask to follow the surviving parents
        perm_mask = prev_k.unsqueeze(2).expand_as(self.mask)  # [B, K, N]
        self.mask = self.mask.gather(1, perm_mask)
        self.mask.scatter_(2, new_nodes.unsqueeze(2), 0.0)


if __name__ == "__main__":
    torch.manual_seed(0)
    beam = TSPBeam(beam_size=3, batch_size=2, num_nodes=5)
    for _ in range(2):
        probs = torch.softmax(torch.randn(2, 3, 5), dim=-1)
        beam.advance(probs)
    print("nodes", beam.next_nodes[-1])
    print("mask", beam.mask)

import torch


class TourBeam:
    """Beam search over a dense edge-probability heatmap for TSP decoding."""

    def __init__(self, batch_size, beam_size, num_nodes, start_node=0):
        self.batch_size = batch_size
        self.beam_size = beam_size
        self.num_nodes = num_nodes
        # visited mask: (batch, beam, nodes), 1 = still available
        self.mask = torch.ones(batch_size, beam_size, num_nodes)
        self.mask[:, :, start_node] = 0
        self.scores = torch.zeros(batch_size, beam_size)
        self.prev_ks = []
        self.next_nodes = [torch.full((batch_size, beam_size), start_node, dtype=torch.long)]

    def advance(self, trans_logp):
        # trans_logp: (batch, beam, nodes) log-prob of moving to each node
        beam_lk = trans_logp + self.scores.unsqueeze(2)
        beam_lk = beam_lk.masked_fill(self.mask == 0, -1e9)
        flat = beam_lk.view(self.batch_size, -1)                # (batch, beam * nodes)
        best_scores, best_ids = flat.topk(self.beam_size, 1, True, True)
        self.scores = best_scores
        prev_k = best_ids / self.num_nodes                      # which beam each winner came from
        self.prev_ks.append(prev_k)
        new_nodes = best_ids - prev_k * self.num_nodes
        self.next_nodes.append(new_nodes)
        # reorder the visited mask so each beam inherits its parent's history
        perm_mask = prev_k.unsqueeze(2).expand_as(self.mask)    # (batch, beam, nodes)
        self.mask = self.mask.gather(1, perm_mask)
        self.mask.scatter_(2, new_nodes.unsqueeze(2), 0)


def decode(heatmap, beam_size):
    batch, n, _ = heatmap.shape
    beam = TourBeam(batch, beam_size, n)
    logp = heatmap.log_softmax(-1)
    for _ in range(n - 1):
        cur = beam.next_nodes[-1]                               # (batch, beam)
        rows = logp.gather(1, cur.unsqueeze(2).expand(-1, -1, n))
        beam.advance(rows)
    return beam


if __name__ == "__main__":
    torch.manual_seed(0)
    heat = torch.randn(2, 6, 6)
    beam = decode(heat, beam_size=3)
    print("final scores", beam.scores)

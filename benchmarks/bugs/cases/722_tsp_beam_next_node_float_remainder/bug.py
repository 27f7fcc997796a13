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
        prev_k = best_ids / self.num_nodes
        new_nodes = (best_ids - prev_k * self.num_nodes).long()
        self.next_nodes.append(new_nodes)
        perm = prev_k.long().unsqueeze(2).expand_as(self.mask)
        self.mask = self.mask.gather(1, perm)
        self.mask = self.mask.scatter(2, new_nodes.unsqueeze(2), 0)
        return new_nodes


if __name__ == "__main__":
    torch.manual_seed(0)
    beam = TourBeam(batch_size=2, beam_size=3, num_nodes=6)
    for step in range(3):
        probs = torch.randn(2, 3, 6).log_softmax(-1)
        picked = beam.advance(probs)
        print("step", step, "nodes", picked.tolist())
    print("visited per beam:", (beam.mask == 0).sum(-1).tolist())

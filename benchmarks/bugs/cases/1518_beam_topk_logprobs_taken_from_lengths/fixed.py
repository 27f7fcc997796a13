import torch


class TopKCollector:
    """Collects finished hypotheses per utterance and returns the top-k of each."""

    def __init__(self, beam_size, topk):
        self.beam_size = beam_size
        self.topk = topk

    def get_top_prediction(self, hyps_and_scores):
        top_hyps, top_log_probs, top_scores, top_lengths = [], [], [], []
        batch_size = len(hyps_and_scores)
        beam_offset = torch.arange(batch_size) * self.beam_size

        for i in range(batch_size):
            hyps, log_probs, scores = zip(*hyps_and_scores[i])
            top_hyps += hyps
            top_scores += scores
            top_log_probs += log_probs
            top_lengths += [len(hyp) for hyp in hyps]
        top_hyps = torch.nn.utils.rnn.pad_sequence(top_hyps, batch_first=True, padding_value=0)
        top_scores = torch.stack(top_scores, dim=0).view(batch_size, -1)
        top_lengths = torch.tensor(top_lengths, dtype=torch.int)

        topk_scores, indices = top_scores.topk(self.topk, dim=-1)
        indices = (indices + beam_offset.unsqueeze(1)).view(batch_size * self.topk)
        topk_hyps = torch.index_select(top_hyps, dim=0, index=indices).view(batch_size, self.topk, -1)
        topk_lengths = torch.index_select(top_lengths, dim=0, index=indices).view(batch_size, self.topk)
        topk_log_probs = [top_log_probs[index.item()] for index in indices]
        return topk_hyps, topk_scores, topk_lengths, topk_log_probs


def fake_finished_hypotheses(batch_size, beam_size, vocab, seed=0):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(batch_size):
        finished = []
        for _ in range(beam_size):
            length = int(torch.randint(2, 6, (1,), generator=g))
            hyp = torch.randint(1, vocab, (length,), generator=g)
            log_probs = -torch.rand(length, generator=g) * 3
            finished.append((hyp, log_probs, log_probs.sum()))
        out.append(finished)
    return out


if __name__ == "__main__":
    collector = TopKCollector(beam_size=4, topk=2)
    hyps_and_scores = fake_finished_hypotheses(batch_size=3, beam_size=4, vocab=30)
    hyps, scores, lengths, log_probs = collector.get_top_prediction(hyps_and_scores)
    for b, finished in enumerate(hyps_and_scores):
        ranked = sorted(finished, key=lambda item: float(item[2]), reverse=True)[:2]
        for k, (hyp, lp, score) in enumerate(ranked):
            flat = b * 2 + k
            assert abs(float(scores[b, k]) - float(score)) < 1e-6
            assert int(lengths[b, k]) == len(hyp)
            assert hyps[b, k, : len(hyp)].tolist() == hyp.tolist()
            assert torch.equal(log_probs[flat], lp)
    print("ok")

import torch


class BeamSearch:
    def __init__(self, beam_size):
        self.beam_size = beam_size
        self.token_details = []

    def select_paths(self, logprobs, prior_scores):
        voc_size = logprobs.size(-1)
        beam_scores = logprobs + prior_scores.unsqueeze(1)
        flat = beam_scores.view(-1)
        best_scores, best_idxs = flat.topk(self.beam_size)
        hyp_ids = torch.div(best_idxs, voc_size, rounding_mode="floor")
        tok_ids = best_idxs % voc_size
        tok_scores = logprobs.index_select(0, hyp_ids).gather(1, tok_ids.unsqueeze(1)).view(-1)
        return hyp_ids, tok_ids, best_scores, tok_scores


if __name__ == "__main__":
    torch.manual_seed(0)
    search = BeamSearch(beam_size=3)
    prior = torch.tensor([-1.1, -1.2, -1.3])
    logprobs = torch.randn(3, 20).log_softmax(-1)
    hyp_ids, tok_ids, scores, tok_scores = search.select_paths(logprobs, prior)
    # reference: enumerate every (hypothesis, token) continuation
    cands = []
    for h in range(3):
        for t in range(20):
            cands.append((prior[h].item() + logprobs[h, t].item(), h, t))
    cands.sort(key=lambda c: -c[0])
    for k, (s, h, t) in enumerate(cands[:3]):
        assert (hyp_ids[k].item(), tok_ids[k].item()) == (h, t)
        assert abs(tok_scores[k].item() - logprobs[h, t].item()) < 1e-6
    print("ok")

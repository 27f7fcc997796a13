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
        tok_scores = torch.gather(logprobs, 1, tok_ids.unsqueeze(0)).view(-1)
        return hyp_ids, tok_ids, best_scores, tok_scores


if __name__ == "__main__":
    torch.manual_seed(0)
    search = BeamSearch(beam_size=3)
    prior = torch.tensor([-1.1, -1.2, -1.3])
    logprobs = torch.randn(3, 20).log_softmax(-1)
    hyp_ids, tok_ids, scores, tok_scores = search.select_paths(logprobs, prior)
    print("hyp ids:", hyp_ids.tolist(), "tok ids:", tok_ids.tolist())
    print("token logprobs logged:", [round(v, 3) for v in tok_scores.tolist()])
    print("score increments:     ", [round(v, 3) for v in (scores - prior[hyp_ids]).tolist()])

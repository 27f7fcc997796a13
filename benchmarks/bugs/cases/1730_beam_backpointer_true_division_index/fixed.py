import torch
import torch.nn.functional as F


class ToyDecoder(torch.nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = torch.nn.Embedding(cfg["vocab_size"], cfg["d_model"])
        self.out = torch.nn.Linear(cfg["d_model"], cfg["vocab_size"])

    def forward(self, preds):
        return F.log_softmax(self.out(self.embed(preds).mean(dim=1)), dim=-1)


class TransformerRecognizer:
    def __init__(self, model, cfg):
        self.model = model
        self.beam_width = cfg["beam_width"]
        self.max_len = cfg["max_len"]
        self.sos = cfg["sos_id"]

    def step(self, preds, scores, batch_size):
        log_probs = self.model(preds)
        last_k_scores, last_k_preds = log_probs.topk(k=self.beam_width)
        scores = scores.view(-1, 1) + last_k_scores
        scores = scores.view(batch_size, self.beam_width * self.beam_width)
        best_k_scores, best_k_indices = scores.topk(k=self.beam_width)
        base = torch.arange(batch_size).view(-1, 1) * self.beam_width * self.beam_width
        best_k_indices = (base + best_k_indices).view(-1)

        best_k_preds = torch.index_select(last_k_preds.view(-1), dim=-1, index=best_k_indices)
        preds_symbol = torch.index_select(preds, dim=0, index=best_k_indices.div(self.beam_width).long())
        preds_symbol = torch.cat((preds_symbol, best_k_preds.view(-1, 1)), dim=1)
        return preds_symbol, best_k_scores.view(-1)

    def recognize(self, batch_size):
        preds = torch.full((batch_size * self.beam_width, 1), self.sos, dtype=torch.long)
        scores = torch.zeros(batch_size * self.beam_width)
        scores.view(batch_size, self.beam_width)[:, 1:] = float("-inf")
        for _ in range(self.max_len):
            preds, scores = self.step(preds, scores, batch_size)
        return preds, scores


def build(cfg):
    torch.manual_seed(cfg["seed"])
    return TransformerRecognizer(ToyDecoder(cfg), cfg)


if __name__ == "__main__":
    cfg = {"vocab_size": 11, "d_model": 8, "beam_width": 3, "max_len": 4, "sos_id": 1, "seed": 0}
    recognizer = build(cfg)
    with torch.no_grad():
        hyps, scores = recognizer.recognize(batch_size=2)

        ref_hyps, ref_scores = [], []
        for b in range(2):
            beams = [(0.0, [1])] + [(float("-inf"), [1])] * 2
            for _ in range(cfg["max_len"]):
                cands = []
                for score, seq in beams:
                    lp = recognizer.model(torch.tensor([seq]))[0].tolist()
                    top = sorted(range(len(lp)), key=lambda t: -lp[t])[:3]
                    cands += [(score + lp[t], seq + [t]) for t in top]
                beams = sorted(cands, key=lambda c: -c[0])[:3]
            ref_hyps += [seq for _, seq in beams]
            ref_scores += [s for s, _ in beams]
    assert hyps.tolist() == ref_hyps, (hyps.tolist(), ref_hyps)
    assert torch.allclose(scores, torch.tensor(ref_scores), atol=1e-5)
    print("ok")

import torch


class Beam:
    def __init__(self, size, n_words):
        self.size = size
        self.n_words = n_words
        self.scores = torch.zeros(size)
        self.prev_ks = []
        self.next_ys = [torch.zeros(size, dtype=torch.long)]

    def advance(self, word_lk):
        beam_lk = word_lk + self.scores.unsqueeze(1)
        flat = beam_lk.view(-1)
        best, best_id = flat.topk(self.size, 0, True, True)
        self.scores = best
        prev_k = best_id // self.n_words
        self.prev_ks.append(prev_k)
        self.next_ys.append(best_id - prev_k * self.n_words)

    def get_current_origin(self):
        return self.prev_ks[-1]


class DecoderState:
    def __init__(self, hidden):
        self.hidden = hidden

    def beam_update(self, idx, positions, beam_size):
        sent = self.hidden.view(self.hidden.size(0), beam_size, -1, self.hidden.size(2))[:, :, idx]
        sent.copy_(sent.index_select(1, positions))


def translate_step(cfg, state, beams, out):
    for j, b in enumerate(beams):
        b.advance(out[:, j])
        state.beam_update(j, b.get_current_origin(), cfg["beam_size"])


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"beam_size": 4, "batch_size": 2, "vocab": 13, "rnn_size": 6, "layers": 2}
    hidden = torch.randn(cfg["layers"], cfg["beam_size"] * cfg["batch_size"], cfg["rnn_size"])
    state = DecoderState(hidden.clone())
    beams = [Beam(cfg["beam_size"], cfg["vocab"]) for _ in range(cfg["batch_size"])]
    out = torch.randn(cfg["beam_size"], cfg["batch_size"], cfg["vocab"]).log_softmax(-1)
    translate_step(cfg, state, beams, out)
    B = cfg["beam_size"]
    ref = hidden.view(cfg["layers"], B, cfg["batch_size"], cfg["rnn_size"])
    got = state.hidden.view(cfg["layers"], B, cfg["batch_size"], cfg["rnn_size"])
    for j, b in enumerate(beams):
        for k in range(B):
            origin = int(b.prev_ks[-1][k])
            for layer in range(cfg["layers"]):
                assert torch.equal(got[layer, k, j], ref[layer, origin, j])
            assert int(b.next_ys[-1][k]) == int(b.prev_ks[-1][k]) * 0 + (int(out[:, j].reshape(-1).topk(B)[1][k]) % cfg["vocab"])
    print("ok")

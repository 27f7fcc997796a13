import torch
import torch.nn as nn
import torch.nn.functional as F


class Seq2SeqDecoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.NULL, self.START, self.END = cfg["null"], cfg["start"], cfg["end"]
        self.embed = nn.Embedding(cfg["vocab_size"], cfg["wordvec_dim"])
        self.rnn = nn.GRUCell(cfg["wordvec_dim"], cfg["hidden_dim"])
        self.out = nn.Linear(cfg["hidden_dim"], cfg["vocab_size"])

    def reinforce_sample(self, h0, max_length, argmax=False):
        N = h0.size(0)
        y = torch.full((N, max_length), self.NULL, dtype=torch.long)
        done = torch.zeros(N, dtype=torch.bool)
        cur_input = torch.full((N,), self.START, dtype=torch.long)
        h = h0
        for t in range(max_length):
            h = self.rnn(self.embed(cur_input), h)
            probs = F.softmax(self.out(h), dim=-1)
            if argmax:
                cur_output = probs.max(1)[1]
            else:
                cur_output = torch.multinomial(probs, 1).squeeze(1)
            not_done = ~done
            y[:, t][not_done] = cur_output[not_done]
            done = done | (cur_output == self.END)
            cur_input = cur_output
            if bool(done.all()):
                break
        return y


def build_decoder(opts):
    cfg = {"null": 0, "start": 1, "end": 2}
    cfg.update({k: opts[k] for k in ("vocab_size", "wordvec_dim", "hidden_dim")})
    return Seq2SeqDecoder(cfg)


if __name__ == "__main__":
    torch.manual_seed(0)
    opts = {"vocab_size": 12, "wordvec_dim": 16, "hidden_dim": 32, "batch_size": 5, "max_length": 10}
    decoder = build_decoder(opts).eval()
    h0 = torch.randn(opts["batch_size"], opts["hidden_dim"])
    with torch.no_grad():
        programs = decoder.reinforce_sample(h0, opts["max_length"], argmax=True)
    with torch.no_grad():
        for n in range(opts["batch_size"]):
            h = h0[n : n + 1]
            tok, finished = 1, False
            for t in range(opts["max_length"]):
                h = decoder.rnn(decoder.embed(torch.tensor([tok])), h)
                scores = decoder.out(h)[0].softmax(dim=-1)
                tok = max(range(scores.shape[0]), key=lambda v: float(scores[v]))
                expected = 0 if finished else tok
                assert int(programs[n, t]) == expected, (n, t)
                finished = finished or tok == 2
    print("ok")

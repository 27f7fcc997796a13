from dataclasses import dataclass, field
from typing import List

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


@dataclass
class Hypothesis:
    score: float
    yseq: List[int] = field(default_factory=list)


class StatelessPredictor(nn.Module):
    def __init__(self, vocab_size: int, dim: int, blank_id: int = 0):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.blank_id = blank_id

    def batch_score(self, last_tokens: Int[Tensor, "hyps"]) -> Float[Tensor, "hyps dim"]:
        return self.embed(last_tokens)


class JointNetwork(nn.Module):
    def __init__(self, enc_dim: int, dec_dim: int, joint_dim: int, vocab_size: int):
        super().__init__()
        self.lin_enc = nn.Linear(enc_dim, joint_dim)
        self.lin_out = nn.Linear(joint_dim, vocab_size)
        self.lin_dec = nn.Linear(dec_dim, vocab_size, bias=False)

    def forward(
        self, enc_out: Float[Tensor, "hyps enc"], dec_out: Float[Tensor, "hyps dec"]
    ) -> Float[Tensor, "hyps vocab"]:
        return self.lin_out(torch.tanh(self.lin_enc(enc_out))) + self.lin_dec(dec_out)


class AlignLengthSyncSearch:
    """Alignment-length synchronous decoding (Saon et al., 2020): at step i every hypothesis
    with u emitted labels sits on encoder frame t = i - u."""

    def __init__(self, decoder: StatelessPredictor, joint: JointNetwork, beam_size: int, u_max: int):
        self.decoder = decoder
        self.joint = joint
        self.beam_size = beam_size
        self.u_max = u_max
        self.blank_id = decoder.blank_id

    def frames_of(self, hyps: List[Hypothesis], i: int, t_max: int):
        kept, frames = [], []
        for hyp in hyps:
            u = len(hyp.yseq) - 1
            t = i - u + 1
            if t > t_max - 1:
                continue
            kept.append(hyp)
            frames.append(t)
        return kept, frames

    @torch.no_grad()
    def __call__(self, enc_out: Float[Tensor, "time enc"]) -> List[Hypothesis]:
        t_max = enc_out.size(0)
        u_max = min(self.u_max, t_max - 1)
        beam = min(self.beam_size, self.joint.lin_out.out_features - 1)
        B = [Hypothesis(score=0.0, yseq=[self.blank_id])]
        final: List[Hypothesis] = []
        for i in range(t_max + u_max):
            B_, frames = self.frames_of(B, i, t_max)
            if not B_:
                continue
            frame_idx: Int[Tensor, "hyps"] = torch.tensor(frames)
            beam_enc = enc_out.index_select(0, frame_idx)
            dec_out = self.decoder.batch_score(torch.tensor([h.yseq[-1] for h in B_]))
            logp = torch.log_softmax(self.joint(beam_enc, dec_out), dim=-1)
            topk = logp[:, 1:].topk(beam, dim=-1)

            A = []
            for j, hyp in enumerate(B_):
                blank_hyp = Hypothesis(hyp.score + float(logp[j, self.blank_id]), hyp.yseq[:])
                A.append(blank_hyp)
                if frames[j] == t_max - 1:
                    final.append(blank_hyp)
                for lp, k in zip(topk.values[j], topk.indices[j] + 1):
                    A.append(Hypothesis(hyp.score + float(lp), hyp.yseq + [int(k)]))
            B = sorted(A, key=lambda h: h.score, reverse=True)[:beam]
        return sorted(final or B, key=lambda h: h.score, reverse=True)


def greedy_reference(decoder, joint, enc_out, u_max):
    """Greedy transducer decoding with an explicit (t, u) walk over the lattice."""
    t_max = enc_out.size(0)
    t, yseq, score = 0, [decoder.blank_id], 0.0
    with torch.no_grad():
        for _ in range(t_max + min(u_max, t_max - 1)):
            if t == t_max:
                break
            dec = decoder.batch_score(torch.tensor([yseq[-1]]))
            logp = torch.log_softmax(joint(enc_out[t].unsqueeze(0), dec), dim=-1)[0]
            k = int(logp.argmax())
            score += float(logp[k])
            if k == decoder.blank_id:
                t += 1
            else:
                yseq.append(k)
    return yseq, score


if __name__ == "__main__":
    torch.manual_seed(7)
    vocab, enc_dim = 7, 6
    decoder = StatelessPredictor(vocab, vocab)
    joint = JointNetwork(enc_dim, vocab, 16, vocab)
    with torch.no_grad():
        # mimic a trained predictor: right after label k, blank gets likely and k unlikely
        decoder.embed.weight.copy_(torch.eye(vocab))
        joint.lin_dec.weight.zero_()
        joint.lin_dec.weight[1:, 1:] = -3.0 * torch.eye(vocab - 1)
        joint.lin_dec.weight[decoder.blank_id, 1:] = 3.0
        joint.lin_out.weight.mul_(4.0)
        joint.lin_out.bias[decoder.blank_id] += 2.5
    enc_out = torch.randn(9, enc_dim) * 3.0

    search = AlignLengthSyncSearch(decoder, joint, beam_size=1, u_max=6)
    best = search(enc_out)[0]
    ref_seq, ref_score = greedy_reference(decoder, joint, enc_out, u_max=6)
    _, first = search.frames_of([Hypothesis(0.0, [decoder.blank_id])], 0, enc_out.size(0))
    print("encoder frame scored at step 0:", first)
    print("ALSD (beam 1):", best.yseq, round(best.score, 4))
    print("greedy ref   :", ref_seq, round(ref_score, 4))

import math

import torch


class CTCPrefixScore:
    """CTC prefix scoring for label-synchronous decoding (Watanabe et al., 2017)."""

    def __init__(self, x, blank, eos):
        self.logzero = -1e10
        self.blank = blank
        self.eos = eos
        self.x = x
        self.input_length, self.odim = x.shape

    def initial_state(self):
        r = torch.full((self.input_length, 2, 1), self.logzero)
        r[:, 1, 0] = torch.cumsum(self.x[:, self.blank], dim=0)
        return r, torch.zeros(1, 1)

    def __call__(self, ys, r_prev, s_prev):
        n_hyps = len(ys)
        output_length = len(ys[0]) - 1
        xs = self.x.unsqueeze(1).expand(-1, n_hyps, -1)
        r = torch.full((self.input_length, 2, n_hyps, self.odim), self.logzero)
        if output_length == 0:
            r[0, 0] = xs[0]

        r_sum = torch.logaddexp(r_prev[:, 0], r_prev[:, 1])
        log_phi = r_sum.unsqueeze(2).repeat(1, 1, self.odim)
        if output_length > 0:
            for h, y in enumerate(ys):
                log_phi[:, h, y[-1]] = r_prev[:, 1, h]

        start = max(output_length, 1)
        log_psi = r[start - 1, 0].clone()
        for t in range(start, self.input_length):
            r[t, 0] = torch.logaddexp(r[t - 1, 0], log_phi[t - 1]) + xs[t]
            r[t, 1] = torch.logaddexp(r[t - 1, 0], r[t - 1, 1]) + self.x[t, self.blank]
            log_psi = torch.logaddexp(log_psi, log_phi[t - 1] + xs[t])

        log_psi[:, self.eos] = r_sum[-1]
        log_psi[:, self.blank] = self.logzero
        return log_psi - s_prev, r, log_psi


def prefix_beam_search(scorer, sos, beam, maxlen):
    r, s = scorer.initial_state()
    hyps = [[sos]]
    scores = torch.zeros(1)
    ended = []
    for _ in range(maxlen):
        delta, r_all, psi = scorer(hyps, r, s)
        total = scores.unsqueeze(1) + delta
        top_scores, flat = total.view(-1).topk(beam)
        src, tok = flat // scorer.odim, flat % scorer.odim
        new_hyps, keep = [], []
        for score, h, c in zip(top_scores.tolist(), src.tolist(), tok.tolist()):
            if c == scorer.eos:
                ended.append((hyps[h][1:], score))
            else:
                new_hyps.append(hyps[h] + [c])
                keep.append((h, c, score))
        if not keep:
            break
        hyps = new_hyps
        r = torch.stack([r_all[:, :, h, c] for h, c, _ in keep], dim=2)
        s = torch.stack([psi[h, c] for h, c, _ in keep]).unsqueeze(1)
        scores = torch.tensor([sc for _, _, sc in keep])
    return sorted(ended, key=lambda e: e[1], reverse=True), hyps


def ctc_forward_logprob(logp, labels, blank):
    ext = [blank]
    for lab in labels:
        ext += [lab, blank]
    alpha = [-math.inf] * len(ext)
    alpha[0] = logp[0][blank]
    if labels:
        alpha[1] = logp[0][ext[1]]
    for t in range(1, len(logp)):
        new = [-math.inf] * len(ext)
        for s in range(len(ext)):
            terms = [alpha[s]]
            if s >= 1:
                terms.append(alpha[s - 1])
            if s >= 2 and ext[s] != blank and ext[s] != ext[s - 2]:
                terms.append(alpha[s - 2])
            m = max(terms)
            if m > -math.inf:
                new[s] = m + math.log(sum(math.exp(v - m) for v in terms)) + logp[t][ext[s]]
        alpha = new
    tail = [alpha[-1]] + ([alpha[-2]] if labels else [])
    m = max(tail)
    return m + math.log(sum(math.exp(v - m) for v in tail))


if __name__ == "__main__":
    torch.manual_seed(0)
    # vocabulary of 6 units where id 0 is shared by <blank> and <sos/eos>
    logits = torch.randn(12, 6) * 3.0
    logits[:, 0] += 2.0
    x = torch.log_softmax(logits, dim=-1)
    scorer = CTCPrefixScore(x, blank=0, eos=0)

    r, s = scorer.initial_state()
    _, _, psi = scorer([[0]], r, s)
    print("eos score of the empty prefix:", psi[0, 0].item(),
          "CTC log p(empty):", round(ctc_forward_logprob(x.tolist(), [], 0), 4))
    ended, running = prefix_beam_search(scorer, sos=0, beam=3, maxlen=8)
    print("ended hypotheses:", [(hyp, round(sc, 3)) for hyp, sc in ended])
    print("still running after maxlen:", running)

import torch
import torch.nn as nn

CONCEPT_VOCAB = ["bank", "money", "river", "water", "fish", "deposit", "loan", "boat"]


class GconAttn(nn.Module):
    def __init__(self, concept_num, concept_dim, pretrained_concept_emb, hidden_dim):
        super().__init__()
        self.concept_emb = nn.Embedding(concept_num, concept_dim)
        self.concept_emb.weight.data.copy_(pretrained_concept_emb)
        self.mlp = nn.Linear(4 * concept_dim, hidden_dim)
        self.hidd2out = nn.Linear(hidden_dim, 1)

    def forward(self, q_id, a_id, q_num, a_num):
        """
        q_id: (nbz, seq_len)
        a_id: (nbz, seq_len)
        q_num: (nbz,)
        a_num: (nbz,)
        """
        bz, sl = q_id.size()
        qmask = torch.arange(sl) >= q_num.unsqueeze(1)  # (nbz, sl)
        amask = torch.arange(sl) >= a_num.unsqueeze(1)  # (nbz, sl)
        q = self.concept_emb(q_id)  # (nbz, sl, cpt_dim)
        a = self.concept_emb(a_id)  # (nbz, sl, cpt_dim)
        attn = torch.bmm(q, a.transpose(1, 2))  # (nbz, sl, sl)
        attn = attn.masked_fill(amask.unsqueeze(1), -1e9)
        beta = torch.bmm(attn.softmax(dim=-1), a)  # (nbz, sl, cpt_dim)
        qm = torch.relu(self.mlp(torch.cat((q, beta, q - beta, q * beta), dim=-1)))  # (nbz, sl, hid)
        qm = qm.masked_fill(qmask.unsqueeze(2), 0.0)
        q_mean = qm.sum(1) / q_num.unsqueeze(1)  # (nbz, hid)
        return self.hidd2out(q_mean).squeeze(-1)  # (nbz,)


def load_concepts(concept_data, concept2id, max_cpt_num):
    qc, ac, qc_len, ac_len = [], [], [], []
    for data in concept_data:
        # padded slots hold 0 and are excluded by q_num / a_num masks
        cur_qc = [concept2id[x] for x in data["qc"]][:max_cpt_num]
        cur_ac = [concept2id[x] for x in data["ac"]][:max_cpt_num]
        qc.append(cur_qc + [0] * (max_cpt_num - len(cur_qc)))
        ac.append(cur_ac + [0] * (max_cpt_num - len(cur_ac)))
        qc_len.append(len(cur_qc))
        ac_len.append(len(cur_ac))
    return torch.tensor(qc), torch.tensor(ac), torch.tensor(qc_len), torch.tensor(ac_len)


if __name__ == "__main__":
    torch.manual_seed(0)
    concept2id = {c: i for i, c in enumerate(CONCEPT_VOCAB)}
    pretrained = torch.randn(len(CONCEPT_VOCAB), 6)
    model = GconAttn(len(CONCEPT_VOCAB), 6, pretrained, hidden_dim=8)
    concept_data = [
        {"qc": ["bank", "river", "fish"], "ac": ["water"]},
        {"qc": ["bank", "loan"], "ac": ["money", "deposit", "bank"]},
    ]
    qc, ac, qc_len, ac_len = load_concepts(concept_data, concept2id, max_cpt_num=4)
    with torch.no_grad():
        logits = model(qc, ac, qc_len, ac_len)
    for b, data in enumerate(concept_data):
        q = [pretrained[CONCEPT_VOCAB.index(c)] for c in data["qc"]]
        a = [pretrained[CONCEPT_VOCAB.index(c)] for c in data["ac"]]
        hidden = torch.zeros(8)
        for qi in q:
            weights = torch.softmax(torch.stack([torch.dot(qi, aj) for aj in a]), dim=0)
            beta = sum(w * aj for w, aj in zip(weights, a))
            hidden += torch.relu(model.mlp(torch.cat((qi, beta, qi - beta, qi * beta)))).detach()
        ref = model.hidd2out(hidden / len(q)).item()
        assert abs(logits[b].item() - ref) < 1e-5, (b, logits[b].item(), ref)
    print("ok")

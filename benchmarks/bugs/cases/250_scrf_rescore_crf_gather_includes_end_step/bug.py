import torch
import torch.nn as nn


class CRF(nn.Module):
    def __init__(self, hidden_dim, tagset_size):
        super().__init__()
        self.tagset_size = tagset_size
        self.hidden2tag = nn.Linear(hidden_dim, tagset_size)
        self.transitions = nn.Parameter(torch.randn(tagset_size, tagset_size) * 0.1)

    def forward(self, feats):
        seq_len, bat_size = feats.shape[:2]
        emissions = self.hidden2tag(feats).view(seq_len, bat_size, 1, self.tagset_size)
        return emissions + self.transitions.view(1, 1, self.tagset_size, self.tagset_size)


def scrf_to_crf(decoded_segments, l_map):
    """Turns SCRF segments (start, end, label) into the CRF tag-pair indices prev * T + cur."""
    T = len(l_map)
    crf_data = []
    for segments in decoded_segments:
        tags = [l_map["<start>"]]
        for start, end, label in segments:
            for pos in range(start, end + 1):
                prefix = "B-" if pos == start else "I-"
                tags.append(l_map[prefix + label] if label != "O" else l_map["O"])
        tags.append(l_map["<pad>"])
        crf_data.append([tags[i] * T + tags[i + 1] for i in range(len(tags) - 1)])
    return torch.tensor(crf_data).t().unsqueeze(2)


def rescored_with_crf(decoded_segments, l_map, crf_scores):
    seq_len, bat_size = crf_scores.shape[:2]
    crfdata = scrf_to_crf(decoded_segments, l_map)
    tg_energy = torch.gather(crf_scores.view(seq_len, bat_size, -1), 2, crfdata).view(seq_len, bat_size)
    return tg_energy.sum(0)


if __name__ == "__main__":
    torch.manual_seed(0)
    l_map = {"O": 0, "B-PER": 1, "I-PER": 2, "B-LOC": 3, "I-LOC": 4, "<start>": 5, "<pad>": 6}
    crf = CRF(hidden_dim=10, tagset_size=len(l_map))
    feats = torch.randn(6, 2, 10)
    decoded = [[(0, 1, "PER"), (2, 2, "O"), (3, 5, "LOC")], [(0, 0, "O"), (1, 3, "LOC"), (4, 5, "O")]]
    with torch.no_grad():
        scores = rescored_with_crf(decoded, l_map, crf(feats))
    print("CRF scores of the SCRF paths:", [round(v, 4) for v in scores.tolist()])

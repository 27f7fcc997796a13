import torch
from torch import nn


class LayoutLMEmbeddings(nn.Module):
    def __init__(self, vocab_size=120, hidden_size=32, max_position_embeddings=64,
                 max_2d_position_embeddings=1024, type_vocab_size=2):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_position_embeddings, hidden_size)
        self.x_position_embeddings = nn.Embedding(max_2d_position_embeddings, hidden_size)
        self.y_position_embeddings = nn.Embedding(max_2d_position_embeddings, hidden_size)
        self.h_position_embeddings = nn.Embedding(max_2d_position_embeddings, hidden_size)
        self.w_position_embeddings = nn.Embedding(max_2d_position_embeddings, hidden_size)
        self.token_type_embeddings = nn.Embedding(type_vocab_size, hidden_size)
        self.LayerNorm = nn.LayerNorm(hidden_size, eps=1e-12)

    def forward(self, input_ids, bbox):
        seq_length = input_ids.size(1)
        position_ids = torch.arange(seq_length, device=input_ids.device).unsqueeze(0).expand_as(input_ids)
        token_type_ids = torch.zeros_like(input_ids)

        left_position_embeddings = self.x_position_embeddings(bbox[:, :, 0])
        upper_position_embeddings = self.y_position_embeddings(bbox[:, :, 1])
        right_position_embeddings = self.x_position_embeddings(bbox[:, :, 2])
        lower_position_embeddings = self.y_position_embeddings(bbox[:, :, 3])
        h_position_embeddings = self.h_position_embeddings(bbox[:, :, 3] - bbox[:, :, 1])
        w_position_embeddings = self.w_position_embeddings(bbox[:, :, 2] - bbox[:, :, 0])

        embeddings = (
            self.word_embeddings(input_ids)
            + self.position_embeddings(position_ids)
            + left_position_embeddings
            + upper_position_embeddings
            + right_position_embeddings
            + lower_position_embeddings
            + h_position_embeddings
            + w_position_embeddings
            + self.token_type_embeddings(token_type_ids)
        )
        return self.LayerNorm(embeddings)


def encode_page(word_ids, word_boxes, page_size, max_len=12, cls_id=1, sep_id=2):
    """Build input_ids / bbox for one OCR'd page; pixel boxes are scaled to the 0-1000 LayoutLM grid."""
    page_w, page_h = page_size
    ids = [cls_id]
    boxes = [[0, 0, 0, 0]]
    for wid, (x0, y0, x1, y1) in zip(word_ids, word_boxes):
        ids.append(wid)
        boxes.append([int(1000 * x0 / page_w), int(1000 * y0 / page_h),
                      int(1000 * x1 / page_w), int(1000 * y1 / page_h)])
    ids.append(sep_id)
    boxes.append([1000, 1000, 1000, 1000])
    while len(ids) < max_len:
        ids.append(0)
        boxes.append([0, 0, 0, 0])
    return torch.tensor(ids), torch.tensor(boxes)


if __name__ == "__main__":
    torch.manual_seed(0)
    page_size = (1700, 2200)  # a 200 dpi letter-size scan
    word_ids = [17, 45, 88, 23, 61]
    word_boxes = [(120, 210, 410, 260), (450, 210, 780, 260), (820, 212, 1190, 262),
                  (1240, 210, 1580, 258), (120, 1980, 640, 2040)]
    input_ids, bbox = encode_page(word_ids, word_boxes, page_size)
    emb = LayoutLMEmbeddings()
    out = emb(input_ids.unsqueeze(0), bbox.unsqueeze(0))

    rows = []
    for i in range(input_ids.size(0)):
        x0, y0, x1, y1 = [int(v) for v in bbox[i]]
        assert 0 <= x0 <= x1 <= 1000 and 0 <= y0 <= y1 <= 1000
        v = (emb.word_embeddings.weight[int(input_ids[i])] + emb.position_embeddings.weight[i]
             + emb.x_position_embeddings.weight[x0] + emb.y_position_embeddings.weight[y0]
             + emb.x_position_embeddings.weight[x1] + emb.y_position_embeddings.weight[y1]
             + emb.h_position_embeddings.weight[y1 - y0] + emb.w_position_embeddings.weight[x1 - x0]
             + emb.token_type_embeddings.weight[0])
        rows.append(emb.LayerNorm(v))
    ref = torch.stack(rows).unsqueeze(0)
    assert torch.allclose(out, ref, atol=1e-5)
    print("ok")

"""The class's scores as a bar chart: an SVG the summary page holds inline and the Markdown summary links.

Drawn here rather than by a plotting library: the grader needs nothing more
installed, and every bar carries who is in it (``data-students``), so a
browser test can see that no student fell out of the picture.
"""

from __future__ import annotations

import json
import math
from html import escape

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 30, 40  # room for the axes' labels and the title


def bins(scores: list[float]) -> list[int]:
    """Edges every 10 points from 0 to past the highest score: bonus points take scores above 100%,
    and a chart that stopped at 100 would drop those students from the picture."""
    top = max(100, 10 * (math.floor(max(scores, default=0) / 10) + 1))
    return list(range(0, top + 1, 10))


def svg(scores: dict[str, float]) -> str:
    """One bar per 10 points (a score on an edge goes in the bar above it; 100% in 100–110), every student in one."""
    edges = bins(list(scores.values()))
    members: list[list[str]] = [[] for _ in edges[:-1]]
    for student, score in sorted(scores.items()):
        index = min(max(int(score // 10), 0), len(members) - 1)
        members[index].append(student)
    tallest = max((len(group) for group in members), default=0) or 1
    plot_width, plot_height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_width / len(members)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="histogram" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="Distribution of scores" '
        f'font-family="system-ui, sans-serif" font-size="11">',
        f'<text x="{WIDTH / 2}" y="18" text-anchor="middle" font-size="13">'
        f"Scores of {len(scores)} graded submissions</text>",
        f'<line x1="{LEFT}" y1="{TOP + plot_height}" x2="{WIDTH - RIGHT}" y2="{TOP + plot_height}" stroke="#444"/>',
    ]
    for index, group in enumerate(members):
        low, high = edges[index], edges[index + 1]
        height = plot_height * len(group) / tallest
        x, y = LEFT + index * step, TOP + plot_height - height
        names = escape(json.dumps(group), quote=True)
        parts.append(
            f'<rect class="bar" x="{x + 1:.1f}" y="{y:.1f}" width="{step - 2:.1f}" height="{height:.1f}" '
            f'fill="#3b6ea8" data-from="{low}" data-to="{high}" data-students="{names}">'
            f"<title>{low}–{high}%: {len(group)} student(s)</title></rect>"
        )
        if group:
            parts.append(f'<text x="{x + step / 2:.1f}" y="{y - 3:.1f}" text-anchor="middle">{len(group)}</text>')
        parts.append(f'<text x="{x:.1f}" y="{TOP + plot_height + 14}" text-anchor="middle">{low}</text>')
    parts.append(f'<text x="{WIDTH - RIGHT:.1f}" y="{TOP + plot_height + 14}" text-anchor="end">{edges[-1]}</text>')
    parts.append(f'<text x="{WIDTH / 2}" y="{HEIGHT - 6}" text-anchor="middle">score (%)</text>')
    parts.append("</svg>")
    return "".join(parts)

# ruff: noqa: E501  (page text is prose; long lines keep it readable)
"""Write the sample intranet site under indexer/demo/sample_site/ (our own text, several encodings).

Each page has a header, navigation, a sidebar, a footer and, on blog pages, comments
around the article, so that extraction has boilerplate to remove. Run from the repo root:
``python scripts/make_sample_site.py``. The output is committed; rerun after editing.
"""

from __future__ import annotations

from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "indexer" / "demo" / "sample_site"

NAV = [
    ("/index.html", "ポータルトップ"),
    ("/news/index.html", "お知らせ"),
    ("/rules/index.html", "社内規程"),
    ("/it/faq.html", "情報システム"),
    ("/blog/index.html", "社内ブログ"),
    ("/about/departments.html", "部署紹介"),
]

SIDEBAR = """<div class="side">
<h3>よく使うリンク</h3>
<ul><li><a href="/rules/leave.html">休暇申請</a></li><li><a href="/rules/expense.html">経費精算</a></li>
<li><a href="/it/vpn.html">VPN接続</a></li><li><a href="/it/password.html">パスワード変更</a></li></ul>
<h3>人気の記事</h3>
<ul><li><a href="/blog/2024-07-shokudo.html">社員食堂の新メニュー</a></li>
<li><a href="/blog/2024-08-natsumatsuri.html">夏祭りレポート</a></li></ul>
<p class="banner">ストレスチェック受付中！ 期限までに回答してください。</p>
</div>"""

FOOTER = """<div class="footer">
<p><a href="/about/departments.html">お問い合わせ</a> | <a href="/private/salary.html">人事専用</a></p>
<p>Copyright 2024 さくら製作所 社内ポータル 運営：総務部</p>
</div>"""


def page(title: str, body: str, charset: str | None, comments: str = "") -> str:
    """One page with the shared header, navigation, sidebar and footer."""
    meta = (
        f'<meta http-equiv="Content-Type" content="text/html; charset={charset}">'
        if charset
        else ""
    )
    nav = " | ".join(f'<a href="{href}">{label}</a>' for href, label in NAV)
    return f"""<!DOCTYPE html>
<html lang="ja">
<head>
{meta}
<title>{title} - さくら製作所 社内ポータル</title>
<meta name="description" content="{title}">
</head>
<body>
<div class="header"><a href="/index.html">さくら製作所 社内ポータル</a>
<div class="nav">{nav}</div></div>
<table width="100%"><tr>
<td valign="top" class="content">
<div class="breadcrumb"><a href="/index.html">トップ</a> &gt; {title}</div>
<h1>{title}</h1>
{body}
{comments}
</td>
<td valign="top" width="200">{SIDEBAR}</td>
</tr></table>
{FOOTER}
</body>
</html>
"""


def comments(items: list[tuple[str, str]]) -> str:
    """A comment thread below an article."""
    rows = "\n".join(
        f'<div class="comment"><p class="who">{who}</p><p>{text}</p></div>' for who, text in items
    )
    return (
        f'<div class="comments"><h3>コメント</h3>\n{rows}\n<form><textarea></textarea>'
        f'<input type="submit" value="コメントする"></form></div>'
    )


PAGES: dict[str, tuple[str, str, str | None, str]] = {}


def add(
    path: str, codec: str, charset: str | None, title: str, body: str, thread: str = ""
) -> None:
    """Register a page: its path, Python codec, declared charset (None: undeclared)."""
    PAGES[path] = (codec, title, charset, page(title, body, charset, thread))


add(
    "index.html",
    "utf-8",
    "UTF-8",
    "ポータルトップ",
    """
<p>さくら製作所の社内ポータルへようこそ。社員向けのお知らせ、社内規程、情報システムの手順書、社内ブログをまとめています。</p>
<h2>新着のお知らせ</h2>
<ul>
<li><a href="/news/2024-04-01-system.html">新しい勤怠管理システムを導入します</a></li>
<li><a href="/news/2024-05-10-office.html">本社事務所の移転について</a></li>
<li><a href="/news/2024-06-03-health.html">定期健康診断の実施について</a></li>
</ul>
<p>過去のお知らせは<a href="/news/index.html">お知らせ一覧</a>をご覧ください。</p>
""",
)

add(
    "news/index.html",
    "utf-8",
    "UTF-8",
    "お知らせ一覧",
    """
<ul>
<li>2024年6月3日 <a href="/news/2024-06-03-health.html">定期健康診断の実施について</a></li>
<li>2024年5月10日 <a href="/news/2024-05-10-office.html">本社事務所の移転について</a></li>
<li>2024年4月1日 <a href="/news/2024-04-01-system.html">新しい勤怠管理システムを導入します</a></li>
</ul>
""",
)

add(
    "news/2024-04-01-system.html",
    "utf-8",
    "UTF-8",
    "新しい勤怠管理システムを導入します",
    """
<p>2024年4月1日より、全社で新しい勤怠管理システムの運用を開始します。これまで紙の出勤簿と表計算ファイルで行っていた勤務時間の記録は、すべて新システムに移行します。</p>
<p>新システムでは、出勤と退勤の打刻をパソコンまたはスマートフォンから行えます。残業の申請と承認もシステム上で完結するため、上長の押印は不要になります。</p>
<h2>移行のスケジュール</h2>
<p>3月中に各部署で説明会を開きます。説明会の日程は総務部から個別に連絡します。4月分の勤務時間から新システムで記録してください。</p>
<p>操作方法が分からない場合は、情報システム部のヘルプデスク（内線2400）までお問い合わせください。</p>
""",
)

add(
    "news/2024-05-10-office.html",
    "cp932",
    "Shift_JIS",
    "本社事務所の移転について",
    """
<p>㈱さくら製作所の本社事務所は、2024年7月に新しいビルへ移転します。移転に伴い、次の点にご注意ください。</p>
<p>① 移転作業は7月12日（金）の業務終了後に行います。私物は前日までに段ボール箱へまとめてください。</p>
<p>② 新事務所の住所は東京都港区芝浦一丁目２番３号です。代表電話番号は変わりません。</p>
<p>③ 移転の責任者は総務部の髙橋です。質問は髙橋まで内線でお寄せください。</p>
<p>受付時間は平日9:00～17:30です。</p>
""",
)

add(
    "news/2024-06-03-health.html",
    "euc_jp",
    "EUC-JP",
    "定期健康診断の実施について",
    """
<p>労働安全衛生法に基づき、今年度の定期健康診断を実施します。対象は全ての正社員と契約社員です。</p>
<p>健康診断は6月17日から6月28日まで、本社三階の会議室で行います。受診の予約は各部署の取りまとめ担当者を通して行ってください。</p>
<h2>当日の注意</h2>
<p>前日の夜九時以降は食事を控えてください。水やお茶は飲んでもかまいません。服薬中の方は、問診票に薬の名前を記入してください。</p>
<p>期間中に受診できない方は、指定の医療機関で受診し、結果を人事部へ提出してください。</p>
""",
)

add(
    "rules/index.html",
    "utf-8",
    "UTF-8",
    "社内規程",
    """
<p>社内規程と手続きの一覧です。</p>
<ul><li><a href="/rules/leave.html">有給休暇の取得手順</a></li>
<li><a href="/rules/expense.html">経費精算規程</a></li></ul>
""",
)

add(
    "rules/leave.html",
    "cp932",
    "Shift_JIS",
    "有給休暇の取得手順",
    """
<p>有給休暇を取得するときは、原則として取得日の三営業日前までに勤怠管理システムから申請してください。</p>
<p>半日単位の取得もできます。午前休は9:00～13:00、午後休は13:00～17:30の扱いです。</p>
<h2>申請の流れ</h2>
<p>申請は上長が承認すると確定します。急な病気などで事前に申請できなかった場合は、出勤後すみやかに事後申請を行ってください。</p>
<p>年次有給休暇のうち年五日は、会社が時季を指定して取得させる義務があります。計画的な取得にご協力ください。</p>
""",
)

add(
    "rules/expense.html",
    "euc_jp",
    "EUC-JP",
    "経費精算規程",
    """
<p>この規程は、業務のために社員が立て替えた費用の精算方法を定めます。</p>
<p>交通費、宿泊費、会議費、消耗品費の立替えは、発生した月の翌月十日までに精算を申請してください。領収書の原本を添付することが必要です。</p>
<h2>出張旅費</h2>
<p>出張の宿泊費は一泊一万二千円を上限とします。上限を超える場合は、事前に部長の承認を得てください。</p>
""",
)

add(
    "it/vpn.html",
    "utf-8",
    "UTF-8",
    "ＶＰＮ接続の手順",
    """
<p>社外から社内ネットワークに接続するには、ＶＰＮクライアントを使います。初めて使うときは、情報システム部から配布された設定ファイルを読み込んでください。</p>
<p>接続できないときは、ﾈｯﾄﾜｰｸの設定と時刻の設定を確認してください。パソコンの時刻が大きくずれていると、証明書の検証に失敗します。</p>
<p>公共の無線LANを使うときは、必ずＶＰＮに接続してから業務システムを開いてください。</p>
""",
)

add(
    "it/password.html",
    "cp932",
    "Shift_JIS",
    "パスワードの変更方法",
    """
<p>社内システムのﾊﾟｽﾜｰﾄﾞは九十日ごとに変更してください。期限の七日前からログイン画面に通知が表示されます。</p>
<p>新しいパスワードは十二文字以上で、英大文字、英小文字、数字、記号のうち三種類以上を含めてください。過去五回に使ったパスワードは使えません。</p>
<p>パスワードを忘れたときは、本人確認のうえ情報システム部が再発行します。</p>
""",
)

add(
    "it/faq.html",
    "euc_jp",
    None,
    "情報システムのよくある質問",
    """
<h2>プリンターで印刷できません</h2>
<p>まずプリンターの電源と用紙を確認してください。それでも印刷できない場合は、パソコンを再起動してから、もう一度印刷してください。</p>
<h2>メールの容量がいっぱいです</h2>
<p>古いメールを保存用のフォルダーへ移すか、不要な添付ファイルを削除してください。容量の上限は一人あたり五十ギガバイトです。</p>
<h2>新しいソフトウェアを使いたい</h2>
<p>業務で使うソフトウェアは、申請フォームから導入を依頼してください。情報システム部が安全性を確認してから配布します。</p>
""",
)

add(
    "blog/index.html",
    "euc_jp",
    "EUC-JP",
    "社内ブログ",
    """
<div class="entry"><h2><a href="/blog/2024-07-shokudo.html">社員食堂の新メニュー</a></h2>
<p>七月から社員食堂に新しい定食が加わりました。人気の唐揚げ定食に加えて……</p>
<p><a href="/blog/2024-07-shokudo.html">続きを読む</a></p></div>
<div class="entry"><h2><a href="/blog/2024-08-natsumatsuri.html">夏祭りレポート</a></h2>
<p>八月三日に工場の敷地で夏祭りを開きました。当日は……</p>
<p><a href="/blog/2024-08-natsumatsuri.html">続きを読む</a></p></div>
""",
)

add(
    "blog/2024-07-shokudo.html",
    "utf-8",
    "UTF-8",
    "社員食堂の新メニュー",
    """
<p>七月から社員食堂に新しい定食が加わりました。人気の唐揚げ定食に加えて、野菜を多く使った日替わりの健康定食を始めます。</p>
<p>健康定食は管理栄養士が献立を考え、一食あたりの塩分を二・五グラム以下に抑えています。価格は四百五十円です。</p>
<div class="photo"><img src="/img/teishoku.jpg" alt="健康定食"><p>写真：初日の健康定食（鮭の塩焼きと五種の野菜の煮物）</p></div>
<p>食堂の営業時間は十一時から十四時までです。混雑を避けるため、部署ごとに昼休みの時間をずらしてご利用ください。</p>
""",
    comments(
        [
            ("営業部 佐藤", "健康定食、さっそく食べました。薄味ですがおいしかったです。"),
            (
                "開発部 鈴木",
                "カレーの日も続けてほしいです。毎週金曜日のカレーが楽しみなので、なくならないようにお願いします。",
            ),
            ("総務部", "ご意見ありがとうございます。カレーの日は今後も続けます。"),
        ]
    ),
)

add(
    "blog/2024-08-natsumatsuri.html",
    "cp932",
    "Shift_JIS",
    "夏祭りレポート",
    """
<p>八月三日に工場の敷地で夏祭りを開きました。社員とその家族、近所の皆さん合わせて約六百人が来場しました。</p>
<p>今年は盆踊りのほかに、製造部による工作教室を開きました。子どもたちは木材を使って小さな本棚を作り、とても喜んでいました。</p>
<p>実行委員長の髙木さんは「来年はもっと多くの地域の方に来てほしい」と話していました。準備に協力してくださった皆さん、ありがとうございました。</p>
""",
    comments(
        [
            ("製造部 田中", "工作教室、子どもが大喜びでした。来年も参加します！"),
            (
                "品質保証部 伊藤",
                "かき氷の屋台が一番人気でしたね。暑い日だったのでありがたかったです。",
            ),
        ]
    ),
)

add(
    "about/departments.html",
    "iso2022_jp",
    "ISO-2022-JP",
    "部署紹介",
    """
<table border="1">
<tr><th>部署</th><th>主な業務</th><th>内線</th></tr>
<tr><td>総務部</td><td>庶務、施設管理、社内行事の運営</td><td>1100</td></tr>
<tr><td>人事部</td><td>採用、給与、社会保険、研修</td><td>1200</td></tr>
<tr><td>情報システム部</td><td>社内ネットワーク、業務システム、ヘルプデスク</td><td>2400</td></tr>
<tr><td>製造部</td><td>部品の加工と組立て</td><td>3100</td></tr>
</table>
<p>部署の連絡先が変わったときは、総務部までお知らせください。</p>
""",
)

add(
    "private/salary.html",
    "utf-8",
    "UTF-8",
    "人事専用ページ",
    """
<p>このページはロボット除外の確認用です。クロールされてはいけません。</p>
""",
)

ROBOTS = "User-agent: *\nDisallow: /private/\n"


def main() -> None:
    """Write every page in its encoding, plus robots.txt."""
    for path, (codec, _title, _charset, html) in PAGES.items():
        target = OUT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(html.encode(codec))
    (OUT / "robots.txt").write_text(ROBOTS, encoding="ascii")
    print(f"wrote {len(PAGES)} pages to {OUT}")


if __name__ == "__main__":
    main()

"""Seeded text for the synthetic crawl (bench/gen_crawl.py): sentences,
headlines, names and the boilerplate phrases of web templates, in English,
German and Chinese.

Sentences come from part-of-speech patterns over word lists, so that two
texts drawn independently share almost no word 3-shingles (their Jaccard
is near 0) while reading like prose: function words, commas, numbers,
quotes and sentence lengths of 6-30 words. Everything takes a
random.Random, so a seed gives the same text on every machine.
"""

EN = {
    'noun': """report council city company market school teacher student family village
river bridge road station hospital doctor nurse patient museum library garden park
farmer harvest weather storm winter summer election minister committee budget tax
price worker union factory engine software program server network database user
customer service product design model study survey result method theory data
museum festival concert artist painter novel writer poet journal article editor
player team coach season match league stadium ticket fan goal record island coast
harbour ship captain crew airport flight passenger train track bus driver ticket
court judge lawyer case law police officer witness neighbour district region
province county border forest mountain valley lake desert field crop soil water
energy plant battery engineer laboratory experiment sample protein cell gene virus
vaccine climate carbon emission policy agency office director manager board plan
strategy project contract partner investor bank loan account payment fund share
profit loss growth decline rate figure chart table page chapter version release
feature update patch bug issue request answer question problem solution idea
history tradition language culture community church temple castle palace tower
kitchen recipe bread cheese wine coffee tea restaurant menu chef guest hotel room
window door roof wall floor garden path fence neighbourhood street square market
child parent friend colleague volunteer visitor resident tourist audience reader""".split(),
    'adj': """new old small large local national public private early late recent
former young ancient modern central northern southern eastern western rural urban
quiet busy careful sudden gradual strong weak clear simple complex useful rare
common popular famous unusual important serious final initial annual weekly daily
cheap expensive free open closed empty full wide narrow deep shallow bright dark
warm cold wet dry green blue red white black golden wooden stone narrow steep
official independent digital careful detailed brief lengthy quick slow heavy light
familiar strange entire partial similar different separate general specific
remote nearby historic fragile stable""".split(),
    'verb': """open|opens|opened close|closes|closed build|builds|built visit|visits|visited
announce|announces|announced approve|approves|approved reject|rejects|rejected
discuss|discusses|discussed improve|improves|improved reduce|reduces|reduced
increase|increases|increased find|finds|found study|studies|studied test|tests|tested
write|writes|wrote publish|publishes|published describe|describes|described
explain|explains|explained support|supports|supported join|joins|joined leave|leaves|left
plan|plans|planned expect|expects|expected review|reviews|reviewed repair|repairs|repaired
replace|replaces|replaced protect|protects|protected measure|measures|measured
collect|collects|collected share|shares|shared sell|sells|sold buy|buys|bought
hire|hires|hired train|trains|trained release|releases|released install|installs|installed
configure|configures|configured restore|restores|restored cover|covers|covered
question|questions|questioned welcome|welcomes|welcomed celebrate|celebrates|celebrated
organise|organises|organised record|records|recorded paint|paints|painted
prepare|prepares|prepared deliver|delivers|delivered change|changes|changed
compare|compares|compared examine|examines|examined manage|manages|managed""".split(),
    'adv': """quickly slowly carefully recently finally already often rarely always
never usually suddenly quietly openly largely partly mostly nearly clearly simply
again together early later""".split(),
    'prep': 'in on near across behind before after during under over along beside '
            'against without within around through toward'.split(),
    'det': 'the the the a this that every each another one their our its'.split(),
    'conj': 'and but while because although since so and yet'.split(),
    'first': """Anna Ben Clara David Elena Farid Grace Hugo Ines Jonas Karin Leo Maria
Nils Olga Pedro Rosa Samir Tom Ute Vera Wei Yusuf Zoe Marta Ivan Lena Omar Paula""".split(),
    'last': """Adler Brooks Costa Dalton Evans Fischer Garcia Hale Ito Jensen Keller
Lindqvist Moreau Novak Okafor Petrov Quinn Rossi Sato Tanaka Urban Vogel Walsh Young
Zimmer Berg Ferreira Hansen Kowalski Murphy""".split(),
    'place': """Harlow Brennfield Oakridge Marlow Kestrel Bay Ashford Linden Carrow
Westmere Northgate Elmhurst Rivenhall Dunmore Saltcombe Thornbury Greywick Fairhaven
Millbrook Stonebridge Highcliff Eastwood Redmoor Alderley Blackwater""".split(),
}

DE = {
    'noun': """der~Bericht die~Stadt das~Unternehmen der~Markt die~Schule der~Lehrer
die~Familie das~Dorf der~Fluss die~Brücke die~Straße der~Bahnhof das~Krankenhaus
das~Museum die~Bibliothek der~Garten der~Bauer die~Ernte das~Wetter der~Sturm
der~Winter die~Wahl der~Minister der~Ausschuss der~Haushalt die~Steuer der~Preis
die~Fabrik die~Software das~Programm der~Server das~Netzwerk die~Datenbank
der~Kunde das~Produkt die~Studie das~Ergebnis die~Methode der~Künstler der~Roman
die~Mannschaft der~Trainer die~Saison das~Stadion die~Insel die~Küste der~Hafen
das~Schiff der~Flughafen der~Zug das~Gericht die~Polizei der~Zeuge die~Region
der~Wald der~Berg das~Tal der~See das~Feld die~Energie die~Anlage die~Batterie
das~Labor die~Probe das~Klima die~Behörde der~Vorstand der~Plan das~Projekt
der~Vertrag die~Bank der~Kredit das~Konto die~Zahlung der~Gewinn das~Wachstum
die~Version das~Update der~Fehler die~Frage die~Lösung die~Sprache die~Kirche
die~Burg der~Turm die~Küche das~Rezept das~Brot der~Käse der~Wein das~Hotel
das~Fenster die~Tür das~Dach die~Wand der~Nachbar der~Besucher der~Leser""".split(),
    'adj': """neue alte kleine große lokale öffentliche private frühe späte moderne
zentrale ruhige schnelle einfache wichtige seltene bekannte jährliche tägliche
teure offene leere volle breite tiefe helle dunkle warme kalte grüne hölzerne
offizielle digitale genaue kurze lange schwere leichte ähnliche andere""".split(),
    'verb': """eröffnet|eröffnet baut|gebaut besucht|besucht kündigt|angekündigt
genehmigt|genehmigt lehnt|abgelehnt diskutiert|diskutiert verbessert|verbessert
senkt|gesenkt erhöht|erhöht findet|gefunden prüft|geprüft schreibt|geschrieben
veröffentlicht|veröffentlicht beschreibt|beschrieben erklärt|erklärt
unterstützt|unterstützt plant|geplant repariert|repariert ersetzt|ersetzt
schützt|geschützt misst|gemessen sammelt|gesammelt verkauft|verkauft
liefert|geliefert ändert|geändert vergleicht|verglichen untersucht|untersucht""".split(),
    'adv': 'schnell langsam sorgfältig kürzlich endlich bereits oft selten immer '
           'plötzlich ruhig wieder gemeinsam später heute gestern'.split(),
    'prep': 'in an bei nach vor während unter über neben hinter'.split(),
    'conj': 'und aber während weil obwohl doch'.split(),
}

ZH = {
    'noun': """政府 公司 学生 老师 市场 城市 农村 医院 医生 病人 博物馆 图书馆 公园
农民 天气 冬天 夏天 选举 部长 委员会 预算 价格 工人 工厂 软件 程序 服务器 网络 数据库
用户 客户 服务 产品 设计 模型 研究 结果 方法 理论 数据 艺术 作家 小说 杂志 文章 编辑
球员 球队 教练 比赛 球场 门票 岛屿 海岸 港口 船长 机场 航班 乘客 火车 司机 法院
法官 律师 警察 证人 邻居 地区 森林 山区 河流 湖泊 能源 电池 工程师 实验室 实验 样本
气候 政策 机构 办公室 经理 计划 战略 项目 合同 银行 贷款 账户 利润 增长 版本 功能
问题 答案 历史 传统 语言 文化 社区 寺庙 厨房 面包 茶叶 餐厅 酒店 房间 街道 孩子
父母 朋友 同事 志愿者 游客 居民 读者 系统 论坛 帖子 网站 手机 电脑 照片 视频 课程""".split(),
    'adj': """新的 旧的 小型 大型 地方 全国 公共 私人 现代 传统 安静 繁忙 简单 复杂 有用
常见 著名 重要 严重 年度 便宜 昂贵 免费 开放 深入 明显 稳定 详细 具体 不同 相似""".split(),
    'verb': """开放 建设 访问 宣布 批准 拒绝 讨论 改善 减少 增加 发现 研究 测试 发布
描述 解释 支持 参加 计划 预计 审查 修复 替换 保护 测量 收集 分享 出售 购买 培训 安装
配置 恢复 报道 欢迎 庆祝 组织 记录 准备 提供 改变 比较 检查 管理 推出 完成 提高""".split(),
    'adv': '已经 正在 非常 经常 很少 一直 突然 逐渐 再次 共同 终于 仍然 首先 随后'.split(),
    'time': '今天 昨天 去年 上周 本月 近日 目前 今年 上个月 周末 早上 晚上'.split(),
    'place': '北京 上海 广州 深圳 杭州 成都 武汉 南京 西安 重庆 苏州 天津 青岛 厦门'.split(),
    'name': '张伟 王芳 李娜 刘洋 陈静 杨帆 赵磊 黄丽 周杰 吴敏 徐强 孙悦 马超 朱琳'.split(),
}


def _cap(s):
    return s[:1].upper() + s[1:]


def _en_np(rng, plural_ok=True):
    w = rng.choice(EN['noun'])
    r = rng.random()
    if r < 0.3:
        w = rng.choice(EN['adj']) + ' ' + w
    if plural_ok and rng.random() < 0.25:
        w = w + ('es' if w.endswith(('s', 'x', 'ch', 'sh')) else 's')
        return rng.choice(['the', 'many', 'some', 'their', 'our', 'several', 'two']) + ' ' + w
    d = rng.choice(EN['det'])
    if d == 'a' and w[0] in 'aeiou':
        d = 'an'
    return d + ' ' + w


def _en_verb(rng, tense):
    forms = rng.choice(EN['verb']).split('|')
    return forms[2] if tense == 'past' else forms[1]


def _en_person(rng):
    return rng.choice(EN['first']) + ' ' + rng.choice(EN['last'])


def _en_sentence(rng, tense):
    v = lambda: _en_verb(rng, tense)  # noqa: E731
    np = lambda: _en_np(rng)  # noqa: E731
    pp = lambda: rng.choice(EN['prep']) + ' ' + _en_np(rng)  # noqa: E731
    k = rng.randrange(12)
    if k == 0:
        s = '%s %s %s %s' % (np(), v(), np(), pp())
    elif k == 1:
        s = '%s, %s %s %s %s' % (_cap(pp()), np(), rng.choice(EN['adv']), v(), np())
    elif k == 2:
        said = 'said' if tense == 'past' else 'says'
        s = '"%s %s %s," %s %s, %s %s' % (_cap(np()), v(), np(), said, _en_person(rng),
                                          rng.choice(['who leads', 'who runs', 'a member of']), np())
    elif k == 3:
        s = '%s %s %s %s %s, %s %s %s %s' % (np(), v(), np(), pp(), pp(), rng.choice(EN['conj']),
                                             np(), v(), np())
    elif k == 4:
        s = 'In %d, %s %s %s in %s' % (rng.randrange(1950, 2025), np(), v(), np(),
                                      rng.choice(EN['place']))
    elif k == 5:
        s = '%s %s about %d %s %s' % (np(), v(), rng.randrange(2, 900), rng.choice(EN['noun']) + 's',
                                    pp())
    elif k == 6:
        s = '%s and %s %s %s %s' % (_en_person(rng), _en_person(rng), v(), np(), pp())
    elif k == 7:
        s = '%s %s %s, %s %s %s' % (np(), rng.choice(EN['adv']), v(), np(), pp(), pp())
    elif k == 8:
        s = 'According to %s, %s %s %s %s' % (np(), np(), v(), np(), rng.choice(EN['adv']))
    elif k == 9:
        s = '%s %s %s %s %s %s' % (np(), v(), np(), rng.choice(EN['conj']), v(), np())
    elif k == 10:
        s = 'Residents of %s %s %s %s' % (rng.choice(EN['place']), v(), np(), pp())
    else:
        s = '%s %s %s %s %d %s' % (np(), v(), np(), 'after', rng.randrange(2, 40),
                                   rng.choice(['days', 'weeks', 'months', 'years']))
    return _cap(s) + rng.choice('..........!?')


def _de_np(rng):
    art, noun = rng.choice(DE['noun']).split('~')
    if rng.random() < 0.3:
        return art + ' ' + rng.choice(DE['adj']) + ' ' + noun
    return art + ' ' + noun


def _de_sentence(rng, tense):
    forms = rng.choice(DE['verb']).split('|')
    k = rng.randrange(5)
    if k == 0:
        s = '%s %s %s %s %s' % (_de_np(rng), forms[0], _de_np(rng), rng.choice(DE['prep']),
                                _de_np(rng))
    elif k == 1:
        s = '%s hat %s %s %s' % (_de_np(rng), _de_np(rng), rng.choice(DE['adv']), forms[1])
    elif k == 2:
        s = '%s %s %s, %s %s %s' % (rng.choice(DE['adv']), forms[0], _de_np(rng), rng.choice(DE['conj']),
                                    _de_np(rng), forms[0])
    elif k == 3:
        s = 'Im Jahr %d hat %s %s %s' % (rng.randrange(1950, 2025), _de_np(rng), _de_np(rng), forms[1])
    else:
        s = '%s %s %s %d %s' % (_de_np(rng), forms[0], _de_np(rng), rng.randrange(2, 500),
                                rng.choice(['Mal', 'Tage', 'Wochen', 'Jahre']))
    return _cap(s) + '.'


def _zh_np(rng):
    if rng.random() < 0.35:
        return rng.choice(ZH['adj']) + '的' + rng.choice(ZH['noun'])
    return rng.choice(ZH['noun'])


def _zh_sentence(rng, tense):
    k = rng.randrange(6)
    v = rng.choice(ZH['verb'])
    if k == 0:
        s = '%s，%s的%s%s%s了%s' % (rng.choice(ZH['time']), rng.choice(ZH['place']), _zh_np(rng),
                                  rng.choice(ZH['adv']), v, _zh_np(rng))
    elif k == 1:
        s = '%s表示，%s将%s%s，并%s%s' % (rng.choice(ZH['name']), _zh_np(rng), v, _zh_np(rng),
                                    rng.choice(ZH['verb']), _zh_np(rng))
    elif k == 2:
        s = '%s%s%s，%s%s%s' % (_zh_np(rng), rng.choice(ZH['adv']), v, _zh_np(rng),
                              rng.choice(ZH['adv']), rng.choice(ZH['verb']))
    elif k == 3:
        s = '据%s介绍，%s共有%d个%s' % (_zh_np(rng), rng.choice(ZH['place']), rng.randrange(2, 900),
                                  _zh_np(rng))
    elif k == 4:
        s = '%s和%s在%s%s了%s' % (rng.choice(ZH['name']), rng.choice(ZH['name']), rng.choice(ZH['place']),
                              v, _zh_np(rng))
    else:
        s = '为了%s%s，%s%s%s' % (v, _zh_np(rng), _zh_np(rng), rng.choice(ZH['adv']), rng.choice(ZH['verb']))
    return s + rng.choice('。。。。！？')


SENTENCE = {'en': _en_sentence, 'de': _de_sentence, 'zh': _zh_sentence}


def sentence(rng, lang, tense='past'):
    return SENTENCE[lang](rng, tense)


def paragraph(rng, lang, lo=2, hi=6, tense='past'):
    sep = '' if lang == 'zh' else ' '
    return sep.join(sentence(rng, lang, tense) for _ in range(rng.randint(lo, hi)))


def headline(rng, lang):
    """A title of 4-12 words (a short clause, no final stop)."""
    if lang == 'zh':
        return '%s%s%s%s' % (rng.choice(ZH['place']), _zh_np(rng), rng.choice(ZH['verb']), _zh_np(rng))
    if lang == 'de':
        forms = rng.choice(DE['verb']).split('|')
        return _cap('%s %s %s' % (_de_np(rng), forms[0], _de_np(rng)))
    words = '%s %s %s' % (_en_np(rng), _en_verb(rng, 'present'), _en_np(rng))
    if rng.random() < 0.4:
        words += ' ' + rng.choice(EN['prep']) + ' ' + rng.choice(EN['place'])
    return ' '.join(w if w in ('a', 'an', 'the', 'of', 'in', 'on') else _cap(w) for w in words.split())


def person(rng, lang):
    if lang == 'zh':
        return rng.choice(ZH['name'])
    return _en_person(rng)


def username(rng):
    return rng.choice(['', 'the', 'old', 'mr', 'dr', 'x']) + rng.choice(EN['noun']) + \
        rng.choice(['', '_', '.', '']) + str(rng.randrange(1, 9999))


def date(rng, lang):
    y, m, d = rng.randrange(2015, 2025), rng.randrange(1, 13), rng.randrange(1, 29)
    if lang == 'zh':
        return '%d年%d月%d日' % (y, m, d)
    if lang == 'de':
        return '%d.%d.%d' % (d, m, y)
    months = 'January February March April May June July August September October November December'
    return '%s %d, %d' % (months.split()[m - 1], d, y)


def section_names(rng, lang, n):
    pool = {
        'en': 'News Politics Business Sport Culture Science Travel Opinion Health Technology '
              'Local World Food Books Music Weather Education Money Environment Video'.split(),
        'de': 'Nachrichten Politik Wirtschaft Sport Kultur Wissen Reisen Meinung Gesundheit '
              'Technik Lokales Welt Essen Bücher Musik Wetter Bildung Geld Umwelt Video'.split(),
        'zh': '新闻 政治 财经 体育 文化 科技 旅游 观点 健康 数码 本地 国际 美食 读书 音乐 天气 教育 '
              '理财 环境 视频'.split(),
    }[lang]
    return rng.sample(pool, n)

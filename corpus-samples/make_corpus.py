#!/usr/bin/env python3
"""Deterministic generator of the sample WARC corpus and its ground truth.

    python3 corpus-samples/make_corpus.py [OUTDIR]

OUTDIR defaults to the directory of this script.  Writes news-a.warc.gz,
news-b.warc, cn.warc.gz, mixed.warc.gz and expected_clusters.txt.  The
output is byte-identical on every run (no clock, no unseeded randomness,
gzip members with mtime=0) and uses only the Python standard library.  The
ground truth is derived from the plan below, never from running the tool.
See README.md for the planted cases.
"""

import base64
import difflib
import gzip
import hashlib
import os
import random
import struct
import sys
import uuid
import zlib

RNG = random.Random(20261120)          # the only randomness: fixed seed
NS = uuid.UUID("6f1c2a9e-3b7d-4c55-9a10-5e2d8b7c4f01")

# ---------------------------------------------------------------------------
# Articles.  English ones are lists of paragraphs; Chinese ones too.
# ---------------------------------------------------------------------------

E = {}

E["flood"] = ("River Valley council approves flood barrier for the old harbour district",
              "Maria Lopez", [
    "After three hours of debate and more than forty public comments, the River Valley city council voted six to three on Tuesday night to build a permanent flood barrier along the old harbour district, ending a dispute that has divided the waterfront for nearly two years.",
    "The barrier, a combination of raised earth banks and removable steel panels, will run for about two kilometres between the grain terminal and the Fisher Street bridge. Engineers told the council that the design would protect roughly nine hundred homes and two hundred businesses from a flood of the size that swamped the district in the spring of 2019.",
    "Supporters pointed to the cost of doing nothing. The last flood closed the harbour market for eleven weeks and left several family shops unable to reopen. Councillor Amrit Sandhu, who represents the district, said residents had waited long enough. \"People here have been moving their furniture upstairs every time the forecast turns grey,\" she said. \"That is not a way to live.\"",
    "Opponents did not dispute the danger but questioned the price and the look of the project. The current estimate is forty-one million dollars, of which the state has promised about half. Several speakers worried that a wall along the water would cut the neighbourhood off from the river that gives it its character. A group of boat owners asked for wider gates so that the slipway near the old customs house stays usable.",
    "The council added two conditions before the vote. The design team must return within ninety days with drawings of public walkways on top of the banks, and the steel panels must be stored close enough to the river that crews can install them within six hours of a warning.",
    "Construction could begin next autumn if the state grant is confirmed in the spring budget. City staff expect the work to take three years, done in sections so that the market can stay open. A public open house on the drawings is planned for January at the harbour library.",
])

E["bakery"] = ("Bakers' cooperative bets on heritage grain as wheat prices climb",
               "Tom Becker", [
    "When the price of commodity flour jumped for the third time in a year, the owners of five small bakeries in the valley did something unusual for businesses that normally compete for the same breakfast customers. They pooled their money, signed a contract with two farms on the northern plateau, and agreed to buy an entire harvest of an old wheat variety that most mills stopped handling decades ago.",
    "The cooperative, which calls itself Common Loaf, bought forty tonnes of grain this season. The wheat is stone-ground at a restored water mill in Alder Creek and delivered to the member bakeries every Monday. Because the farmers are paid a fixed price agreed before planting, neither side is exposed to the swings of the international market.",
    "Heritage grains yield less per hectare and can be harder to work with. The dough absorbs water differently, and the bakers spent most of the summer adjusting their recipes. Anja Kowalski, who runs a bakery on Mill Street, said the first batches were dense and flat. \"We threw away a lot of bread in July,\" she said. \"By September the loaves had a crust and a flavour that our customers now ask for by name.\"",
    "The arrangement is not cheaper, at least not yet. A kilogram of the cooperative's flour costs about thirty percent more than conventional flour did last year. But the members argue that the comparison is changing quickly, and that stable costs matter more to a small business than the lowest possible price. They also say that the story of the grain helps them sell it.",
    "Agricultural economists are watching with interest. Similar cooperatives in other regions have struggled when a poor harvest left members without enough flour. Common Loaf has tried to guard against that by keeping a reserve in the mill's silo and by adding a third farm next year. If the model holds, the members hope to supply schools and the hospital kitchen by the end of the decade.",
])

E["meteor"] = ("Clear skies promise the best view of the Leonid meteor shower in a decade",
               "Priya Nair", [
    "Stargazers in the valley are in for a rare treat this weekend. Forecasters expect clear, dry air over the region on Saturday and Sunday night, just as the Leonid meteor shower reaches its peak, and the moon will set early enough to leave the sky properly dark for most of the night.",
    "The Leonids appear every November, when Earth passes through the trail of dust left behind by comet Tempel-Tuttle. Each grain of dust, most of them no larger than a grain of sand, strikes the upper atmosphere at about seventy kilometres per second and burns up in a brief streak of light. In most years the shower is modest, with perhaps fifteen meteors an hour under good conditions.",
    "This year could be better. Calculations by several groups of astronomers suggest that Earth will cross a denser filament of dust released by the comet in the nineteenth century. If the models are right, observers far from city lights could see about 120 meteors per hour for a short period before dawn on Sunday. Astronomers stress that such predictions are uncertain, and the outburst may arrive a few hours early or late, or not at all.",
    "The River Valley Astronomical Society is opening its observing field on Hollis Ridge to the public on both nights. Members will bring telescopes to show the planets and a few bright clusters while visitors wait, but the society's president, Daniel Okafor, said that the best instrument for meteors is the human eye. \"Bring a reclining chair, a warm blanket and a thermos of something hot,\" he said. \"Then lie back, look at a wide patch of sky and give your eyes twenty minutes to adapt. Do not look at your phone.\"",
    "The meteors will appear to come from the constellation Leo, which rises in the east around midnight, but they can streak across any part of the sky. Observers do not need to face Leo directly. Looking about halfway up, away from any glow on the horizon, tends to give the best results.",
    "Photographers who want to capture the show should use a wide lens, a sturdy tripod and exposures of fifteen to thirty seconds at a high sensitivity setting. Taking hundreds of frames and sorting through them later is the usual method, since any single meteor lasts less than a second.",
    "For those who cannot travel, the society will stream a live view from its all-sky camera on its website. The stream will start at ten in the evening and run until the sky brightens. Organisers ask that visitors to the ridge park only in the marked field, keep headlights off near the observing area and use red torches, which do not spoil the dark adaptation of everyone else.",
    "If clouds do spoil the weekend, there is no need to despair. The shower remains active at a lower rate for several days after the peak, and the Geminids, usually the richest shower of the year, return in the middle of December.",
])

E["cache"] = ("What we learned from moving our builds to a remote cache",
              "Jonas Weber", [
    "For most of last year our continuous integration was the slowest part of shipping anything. A clean build of the main repository took about forty minutes, and because every pull request started from a fresh machine, every pull request paid for a clean build. Developers learned to push a change, go to lunch and hope for the best. This post describes how we cut the typical build to under six minutes by adding a shared remote cache, and the mistakes we made along the way.",
    "The idea behind a remote cache is simple. Every build step is treated as a function: given the same inputs, meaning source files, compiler flags, tool versions and environment variables, it must produce the same outputs. If you hash all of the inputs, you can use the hash as a key and store the outputs in a shared store. The next machine that needs the same step asks the cache first and downloads the result instead of running the compiler again.",
    "The hard part is the word same. Our first attempt produced a cache hit rate of about eleven percent, which was barely better than nothing. When we looked at the keys, we found that many steps included the absolute path of the checkout, which differed between runners, and a surprising number of them embedded the current date in generated version headers. Each of those made an otherwise identical step look new.",
    "Fixing the paths was mostly a matter of configuring the compilers to rewrite the prefixes they record in debug information. The timestamps took longer. We replaced the generated header with one that reads the commit date from the repository, so that two builds of the same commit agree, and we added a check that fails any step whose outputs change when it is run twice in a row. That check found three more sources of nondeterminism, including a code generator that iterated over a hash map and emitted functions in a different order on every run.",
    "Once the keys were stable, the hit rate climbed above ninety percent for ordinary pull requests. The remaining misses are the steps that really did change, which is exactly what you want. Network bandwidth turned out to matter more than we expected. Downloading thousands of small object files can be slower than compiling them on a fast machine, so we tuned the client to skip the cache for tiny steps and to fetch outputs in parallel.",
    "We also had to think about trust. A cache that anyone can write to is a cache that anyone can poison. Only the machines that build the main branch are allowed to upload results, and pull request builds can read but never write. This lowers the hit rate slightly for long-lived branches, but it means a compromised laptop cannot slip a modified binary into everybody's build.",
    "The numbers after three months: median build time down from forty-one minutes to five and a half, compute spending on continuous integration down by about sixty percent, and far fewer complaints in the team chat. The cache itself costs less per month than one engineer's coffee budget.",
    "If you want to try this, start by measuring how reproducible your builds are before touching any cache configuration. A build that cannot produce the same output twice will never get a good hit rate, and finding the reasons is the real work.",
])

E["leak"] = ("Hunting a memory leak that only appeared on Tuesdays",
             "Sara Lindqvist", [
    "Every Tuesday afternoon, one of our ingestion services would slowly run out of memory and be restarted by the orchestrator. On every other day of the week it stayed flat at about three hundred megabytes. For two months we treated it as an annoyance and added more memory to the container. Then the restarts started to drop messages, and we had to find the cause.",
    "The first clue was in the schedule. Tuesday is when a partner sends us its weekly export, a single file of several gigabytes instead of the thousands of small files we receive on other days. The service reads each file, splits it into records and hands each record to a pool of workers. Nothing in that description looked like it should hold on to memory after a record was processed.",
    "Heap profiles told a different story. Taken an hour apart during the Tuesday import, they showed millions of small byte slices that were still reachable. Each one was only a few dozen bytes, but each one kept alive the large buffer it had been cut from. Our parser read the file in chunks of eight megabytes and returned record fields as views into the chunk, to avoid copying. As long as any single field from a chunk was referenced, the whole chunk stayed in memory.",
    "On normal days this did not matter, because the small files were released as soon as they were done. On Tuesdays, a cache that deduplicated partner identifiers stored one tiny field from almost every chunk, and the cache was never cleared during an import. Eight megabytes of buffer were held for every twenty bytes of identifier.",
    "The fix was a single line: copy the identifier before putting it in the cache. Memory during the Tuesday import now peaks at about four hundred megabytes and returns to normal when the import ends. We also added a test that imports a synthetic large file and asserts that memory use after the import is close to the level before it.",
    "The broader lesson is that zero-copy parsing is a trade. It saves time and allocations, but it ties the lifetime of every small value to the lifetime of a big one. Whenever a value escapes into a long-lived structure, it deserves a copy.",
])

E["robots"] = ("Eastfield High robotics team heads to national finals",
               "Maria Lopez", [
    "A team of eleven students from Eastfield High School will travel to the national robotics finals in March after their machine won the regional championship on Saturday, beating thirty-two other schools in a competition that ended with a tense tiebreaker.",
    "This year's challenge asked teams to build a robot that could sort coloured balls into bins, climb a short ramp and hang from a bar in the final seconds of each match. Eastfield's robot, which the students named Marigold, was not the fastest in the hall, but it rarely made mistakes. Its arm used a simple camera and a colour filter that the students wrote themselves over the winter break.",
    "The final against a team from Port Hamlin was tied after two rounds. In the deciding match, Marigold's climbing hook slipped on the first attempt. The drivers, juniors Kemi Adeyemi and Lucas Varga, had four seconds left to try again, and the hook caught with less than a second to spare.",
    "Their teacher and coach, Rachel Dunmore, said the result reflected months of patient work rather than one lucky moment. The team met three evenings a week since September and rebuilt the drive train twice after it failed during practice. \"They learned more from the failures than from the wins,\" she said.",
    "The trip to the finals will cost about eighteen thousand dollars. The team is raising money through a car wash, a pancake breakfast and donations from local businesses, and it is looking for a sponsor to help pay for spare parts.",
])

E["vines"] = ("Late frost and dry summer leave valley vineyards with a small but promising harvest",
              "Tom Becker", [
    "The grape harvest in the southern hills finished last week, and growers describe it with the same two words: small and good. A late frost in April killed many of the first buds, and a summer with almost no rain kept the surviving berries tiny. Yields are down by about a third compared with an average year.",
    "What the vines lost in quantity they seem to have gained in concentration. Winemakers say the juice is dark and the skins are thick, with sugar and acidity in good balance. Helena Marsh, whose family has farmed grapes near Sutter's Crossing for four generations, said the fermenting tanks smelled better than they had in years. \"It is a vintage for people who like to wait,\" she said.",
    "The smaller crop will still hurt. Many growers sell fruit by the tonne to larger wineries, and a lost third of the harvest means a lost third of the income. Some have started to plant varieties that bud later in spring and need less water, though new vines take at least four years to produce a useful crop.",
    "The regional growers' association is asking the state for help with irrigation and frost fans. Its chairman said that the weather of the last five years no longer looks like bad luck but like a pattern that the industry has to plan for.",
    "Buyers may have to be patient too. Most of the red wines from this vintage will spend at least eighteen months in barrels before bottling, and the first of them are unlikely to reach the shelves of valley wine shops before the spring of 2028.",
])

E["library"] = ("Carnegie library reopens after two-year renovation",
                "Priya Nair", [
    "The old Carnegie library on Elm Square reopened on Saturday after a renovation that took two years and cost nearly twelve million dollars. Hundreds of residents queued in the rain before the doors opened, and the children's room had a waiting line for most of the morning.",
    "The building, finished in 1911 with money from the steel magnate Andrew Carnegie, had become cramped and difficult to heat. The renovation kept the original reading room with its tall windows and oak shelves, but replaced the heating, added a lift and opened the basement as a space for teenagers, with study tables, a small recording studio and a workshop with a laser cutter.",
    "Librarians say that the biggest change is the light. A skylight that had been covered with boards since the 1950s was restored, and the central stair now sits under a column of daylight. Head librarian Grace Whitfield said that visitors kept stopping on the stairs to look up.",
    "The library will be open seven days a week for the first time in its history, thanks to a volunteer programme and a grant from a local foundation. A series of free evening talks on the history of the square begins next month.",
    "Not everyone is delighted. A few long-time readers miss the old card catalogue, which now stands empty in the entrance hall as a piece of furniture, and parking around the square remains as difficult as ever. The city has promised to review the loading zones on Elm Street before the end of the year.",
])

E["bloom"] = ("Bloom filters explained with a box of index cards",
              "Jonas Weber", [
    "A Bloom filter answers one question: have I seen this item before? It answers quickly and with very little memory, and it is allowed to be wrong in only one direction. It may say yes when the true answer is no, but it never says no when the answer is yes. That lopsided promise turns out to be useful in many places, from databases that want to skip disk reads to web browsers that check links against lists of dangerous sites.",
    "Imagine a long row of index cards, all turned face down. To add a word to the filter, you run it through three different hash functions, each of which gives you a card number, and you flip those three cards face up. To check whether a word was added, you compute the same three numbers and look at the cards. If any of them is still face down, the word was certainly never added. If all three are face up, the word was probably added, but those cards might also have been flipped by other words.",
    "The chance of that false yes depends on three things: the number of cards, the number of hash functions and the number of items added. With ten cards per item and seven hash functions, the false positive rate is under one percent. Doubling the cards per item makes it far smaller. The filter never stores the items themselves, which is why it is so compact.",
    "The catch is that you cannot remove an item, because flipping its cards back down could erase evidence of other items. Variants such as counting filters and cuckoo filters work around this at the cost of more memory. For many jobs, though, the plain version is all you need.",
])

E["postgres"] = ("Notes from migrating a ten-year-old schema to PostgreSQL",
                 "Sara Lindqvist", [
    "Last quarter we moved our billing database, a ten-year-old schema with about two hundred tables, from a commercial database to PostgreSQL. The migration itself took one weekend. The preparation took four months. Here are the notes I wish someone had given us at the start.",
    "First, inventory everything that talks to the database. We found cron jobs nobody remembered, a reporting tool that connected with a personal account, and stored procedures that called other stored procedures through three levels of dynamic SQL. Every one of them had to be rewritten or retired before the cutover.",
    "Second, compare behaviour, not just syntax. Our old database treated empty strings as null, and a surprising amount of application code depended on that. Sorting also differed for accented names, which changed the order of invoices in customer statements. We built a harness that ran the same read queries against both systems and diffed the results, and it found problems that no amount of code review would have caught.",
    "Third, rehearse. We restored production snapshots into the new system a dozen times, timed every step and wrote the run book from what actually happened. On the real weekend the data copy finished forty minutes ahead of schedule, and we spent the spare time drinking bad coffee and watching dashboards that stayed boring.",
    "Finally, plan the way back. We kept the old system running read-only for a month and wrote a script that could replay the new system's changes into it. We never needed it, but knowing that it existed made the decision to cut over much easier for everyone involved, including the finance team.",
])

E["keyboard"] = ("Six months with a split keyboard",
                 "Ana Ferreira", [
    "In the spring my wrists started to ache after long days of typing, and a physiotherapist suggested that I try a split keyboard. Six months later I am still using one, and I want to write down what changed, what did not, and what I would tell anyone considering the switch.",
    "The first two weeks were humbling. My typing speed dropped from around ninety words per minute to barely thirty, because I had been reaching across the middle of the keyboard with the wrong hand for twenty years without knowing it. The split forces each hand to stay on its own side. By the end of the first month I was back to seventy, and today I am slightly faster than before.",
    "The ache went away after about three weeks. I cannot say for certain that the keyboard did it alone, since I also raised my monitor and started taking short breaks, but my shoulders sit lower and wider, and that feels like the main difference.",
    "The downsides are real. The keyboard is expensive, it takes up more desk space, and typing on a laptop now feels cramped. Programmable layers are powerful but easy to overdo. I spent far too many evenings moving the brackets around before settling on a layout I could remember.",
    "Would I recommend it? If typing hurts, yes, but as one part of a broader change in how you sit and work, not as a magic cure. Borrow one for a week before you buy, and expect the first month to be frustrating. After that, it simply becomes the keyboard.",
])

E["buses"] = ("Night buses return to the western suburbs",
              "Kevin Osei", [
    "Night bus service to the western suburbs will resume on the first of December, three years after it was cut during a budget crisis, the regional transport authority announced on Thursday.",
    "Two routes will run every thirty minutes between midnight and five in the morning, linking the central station with Westbrook, Cedar Park and the hospital campus at Linden Hill. The authority said that hospital staff, cleaners, bakers and hospitality workers had lobbied hardest for the return, since many of them finish or start work when the day network is closed.",
    "Local councillors from Westbrook said they had collected more than six thousand signatures for the petition that started the campaign. One of them, Farida Haddad, said the return of the buses would make a real difference to young people who currently cannot get home safely after evening shifts.",
    "Surveys carried out over the summer found that about four thousand people regularly travel between the centre and the western suburbs at night, most of them by taxi or by walking long distances. Union representatives welcomed the decision but said that a single fare for night and day services should follow.",
    "The service will be reviewed after a year. The authority expects it to cost about two million dollars annually, partly paid for by the hospital and the city's hospitality association.",
    "Passengers will be able to use the same cards and mobile tickets as on the daytime network. Each bus will carry a trained attendant on Friday and Saturday nights, a measure the authority introduced after drivers raised concerns about safety on the late services that ran before the cuts.",
])

C = {}

C["waste"] = ("垃圾分类进社区：老小区的新习惯", [
    "清晨七点，东湖街道的幸福里小区已经有居民提着分好类的垃圾袋走向投放点。三个月前，这里还只有几个混装垃圾桶，如今每栋楼下都摆着厨余垃圾、可回收物、有害垃圾和其他垃圾四种颜色的桶，旁边还站着一位穿红马甲的志愿者。",
    "幸福里建成于上世纪九十年代，住户以老年人居多。街道办事处负责人介绍，推行垃圾分类之初，不少老人觉得麻烦，也记不住哪种垃圾该放进哪个桶。为此，社区把分类规则印成大字海报贴在楼道里，又组织志愿者每天早晚两次在投放点值守，手把手地教居民分拣。",
    "退休教师王阿姨是第一批报名的志愿者。她说，刚开始有人嫌她多管闲事，后来大家发现，分类以后楼下的异味少了，苍蝇也少了，态度就慢慢变了。“现在不少老邻居比我还认真，剩菜剩饭都要先把汤水沥干再倒。”",
    "为了提高积极性，社区还设立了积分制度。居民每次正确投放，志愿者就在积分卡上盖一个章，积分可以兑换鸡蛋、洗衣液等生活用品。数据显示，小区厨余垃圾的分出率已经从最初的不到两成提高到六成以上，其他垃圾的总量下降了将近三成。",
    "不过，难题依然存在。一些上班族早出晚归，赶不上定时投放的时间；部分租户流动性大，宣传很难覆盖到位。街道方面表示，下一步将在小区门口增设一个延时投放点，并与物业公司合作，在租户入住时发放分类指南。",
    "专家认为，垃圾分类的关键不在于一时的热情，而在于把好习惯变成日常。只有设施方便、规则清楚、反馈及时，居民才能长期坚持下去。",
])

C["village"] = ("高铁开通之后，山村民宿迎来新客人", [
    "去年年底，一条新的高速铁路在县城设站，从省城出发只需一个小时就能到达。这条铁路也给距离县城二十多公里的青石村带来了意想不到的变化。",
    "青石村坐落在山谷之中，村里保留着几十栋百年以上的石头老屋。过去，年轻人大多外出打工，老屋常年空置，有的已经漏雨倒塌。三年前，村里几户人家尝试把老屋改造成民宿，但因为交通不便，客人寥寥无几。",
    "高铁开通以后，情况明显好转。每到周末，从省城来的游客坐上高铁，再换乘县里新开的旅游专线，不到两个小时就能住进山里。村民李大哥经营的民宿只有六间客房，今年国庆假期提前一个月就被订满了。他说，客人最喜欢的是村口的老樟树、山上的竹林和自家做的腊肉。",
    "民宿多了，村里的其他产业也跟着活了起来。有人开起了农家菜馆，有人把自家种的茶叶和笋干包装成伴手礼，还有几位在外地工作多年的年轻人回到村里，帮助大家在网上宣传和接受预订。据村委会统计，全村今年的旅游收入预计将超过三百万元，是前年的五倍左右。",
    "快速发展也带来了新的问题。游客增多以后，村里的停车位和污水处理能力明显不足，个别民宿还出现了随意加盖、破坏老屋风貌的情况。县里已经请来规划团队，为村子编制保护和发展规划，明确哪些老屋只能修缮、不能改建。",
    "村支书说，青石村的吸引力来自山水和老房子，如果这些被破坏了，再快的高铁也留不住客人。",
])

C["tea"] = ("春茶开采：茶农的忙碌季节", [
    "清明前后，南山茶园里一片繁忙。天刚蒙蒙亮，采茶工人就背着竹篓走进茶垄，指尖在茶树上轻轻一掐，一芽一叶便落进篓中。今年春季气温回升平稳，雨水充足，茶芽长得整齐饱满，茶农们脸上都带着笑容。",
    "茶园负责人陈师傅已经种了三十年茶。他介绍，明前茶讲究嫩，采摘标准严格，一个熟练的工人一天也只能采两三斤鲜叶，而四斤左右的鲜叶才能制成一斤干茶。采下来的鲜叶要当天摊晾、杀青、揉捻和烘干，晚上的制茶车间常常灯火通明到深夜。",
    "近几年，茶园引进了一批新的加工设备，部分工序实现了机械化，但关键的炒制环节仍然依靠老师傅的手感。陈师傅说，火候差一点，香气就完全不同，这是机器暂时替代不了的。",
    "销售方式也在改变。除了传统的茶叶市场，不少茶农开始通过直播向全国各地的顾客介绍自家茶园，从采摘到炒制全程展示。有的茶农一场直播就能卖出上百斤茶叶。当地还举办了春茶节，邀请游客体验采茶和制茶，让茶园变成了旅游的去处。",
    "业内人士提醒，茶叶品质的根本在于生态。只有减少农药化肥的使用，保护好山上的植被和水源，南山茶才能一直保持好口碑。",
])

C["ai"] = ("人工智能走进医院，医生多了一位助手", [
    "在市第一人民医院的影像科，医生打开一张胸部CT片，屏幕一角很快就弹出提示：右肺下叶发现一个五毫米左右的小结节，建议重点查看。这是医院去年引进的一套人工智能辅助诊断系统。",
    "影像科主任介绍，过去一位医生每天要看上百份影像，长时间工作难免疲劳，一些很小的病灶容易被忽视。人工智能系统可以在几秒钟内完成初步筛查，把可疑区域标记出来，医生再逐一确认。一年来，科室的平均阅片时间缩短了三分之一左右。",
    "除了影像诊断，人工智能还被用在了门诊分诊、病历整理和用药提醒等环节。患者在自助机上描述症状后，系统会推荐合适的科室；医生写病历时，系统能够自动整理检查结果，减少重复录入。",
    "不过，医院也强调，人工智能只是辅助工具，最终的诊断必须由医生作出。系统偶尔也会出现误报，把血管的断面当成结节，或者漏掉形态不典型的病变。因此，医院建立了复核制度，并定期把医生的意见反馈给开发团队，用来改进模型。",
    "专家表示，医疗数据涉及患者隐私，在推广人工智能的同时，必须做好数据安全和伦理审查，让新技术在规范中发展。",
])

C["papercut"] = ("一把剪刀剪出大千世界：剪纸艺人的坚守", [
    "在老城区一条小巷的尽头，有一间不足二十平方米的工作室，墙上挂满了红色的剪纸作品：有活泼的十二生肖，有热闹的庙会场景，还有细如发丝的山水花鸟。工作室的主人是年过六旬的剪纸艺人周老师。",
    "周老师从小跟着外婆学剪纸，一把剪刀用了四十多年。她说，剪纸看起来简单，其实很讲究构图和刀法，一幅复杂的作品往往要先画稿，再一点一点地剪，有时要花上一个多月。最难的是线条之间的连接，剪断一处，整幅作品就可能前功尽弃。",
    "过去，剪纸主要用于逢年过节贴窗花、办喜事。随着生活方式的变化，会剪纸的人越来越少。为了让这门手艺传下去，周老师每周都到附近的小学上兴趣课，还在工作室开设了免费的周末课堂。孩子们最喜欢剪自己的属相，剪完以后总要贴在本子上带回家。",
    "近年来，一些年轻设计师也找到周老师合作，把传统纹样用在书签、灯罩和文创产品上。周老师说，只要大家愿意拿起剪刀，这门手艺就不会消失。",
    "今年春节前，周老师的工作室还举办了一场小型展览，展出了她和学生们的一百多件作品，吸引了不少市民专程前来参观。",
])

# ---------------------------------------------------------------------------
# Templates.  Boilerplate is deliberately heavy: pages that share a template
# look alike unless boilerplate is removed.
# ---------------------------------------------------------------------------

DP_NAV = ["Home", "Local", "Region", "State", "Nation", "World", "Politics", "Business",
          "Markets", "Technology", "Science", "Health", "Education", "Environment",
          "Weather", "Sports", "High School Sports", "Arts", "Books", "Food", "Travel",
          "Opinion", "Letters", "Obituaries", "Classifieds", "Puzzles", "Podcasts",
          "Photo Galleries", "Subscribe", "Newsletters"]

DP_MOST_READ = [
    "Water main break closes Fourth Avenue for the weekend",
    "Five things to do in the valley before the first snow",
    "School board delays vote on new bus routes",
    "Restaurant review: the noodle bar that took over the old bank",
    "Letters: readers respond to the parking fee increase",
    "Hospital opens new maternity ward after long delay",
    "Photo gallery: the harvest festival in pictures",
    "Opinion: the valley needs more affordable housing now",
]


def dp_page(title, author, paras):
    nav = "\n".join('<li><a href="/%s/">%s</a></li>' % (n.lower().replace(" ", "-"), n)
                    for n in DP_NAV)
    most = "\n".join('<li><a href="/2026/10/most-read-%d.html">%s</a></li>' % (i + 1, t)
                     for i, t in enumerate(DP_MOST_READ))
    body = "\n".join("<p>%s</p>" % p for p in paras)
    byline = '<p class="byline">By %s</p>\n' % author if author else ""
    return """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>%(title)s | The Daily Planet</title>
<link rel="stylesheet" href="/static/planet.css">
<script src="/static/analytics.js"></script>
</head>
<body>
<div class="cookie-banner" id="cookie-banner">
<p>We use cookies and similar technologies to remember your preferences, measure how our site is used and show you relevant advertising. You can accept all cookies, refuse those that are not strictly necessary, or choose your settings at any time in our privacy centre.</p>
<button>Accept all</button> <button>Reject optional cookies</button> <button>Manage preferences</button>
</div>
<header class="site-header">
<a class="logo" href="/">The Daily Planet</a>
<p class="tagline">Independent news for the river valley since 1921</p>
<form class="search" action="/search"><input name="q" placeholder="Search the Planet"><button>Search</button></form>
<a class="subscribe" href="/subscribe/">Subscribe for one dollar a week</a> <a href="/login/">Sign in</a>
</header>
<nav class="main-nav">
<ul>
%(nav)s
</ul>
</nav>
<div class="page">
<main id="main">
<article class="story">
<h1>%(title)s</h1>
%(byline)s%(body)s
</article>
<div class="share">Share this story: <a href="/share/email">Email</a> <a href="/share/print">Print</a> <a href="/share/social">Social</a></div>
</main>
<aside class="sidebar">
<h2>Most read</h2>
<ul>
%(most)s
</ul>
<h2>Morning briefing</h2>
<p>Get the top stories from the valley in your inbox every weekday at six. Free for subscribers and readers who register.</p>
<div class="ad">Advertisement: Valley Credit Union home loans with no application fee this month.</div>
</aside>
</div>
<footer class="site-footer">
<p>The Daily Planet is published by Planet Media Group, 200 Harbour Street, River Valley. Our newsroom follows the code of ethics of the Society of Professional Journalists. To report an error, write to corrections at our address or call the news desk. Reproduction of any material without written permission is prohibited.</p>
<p><a href="/about/">About us</a> <a href="/contact/">Contact</a> <a href="/careers/">Careers</a> <a href="/advertise/">Advertise</a> <a href="/privacy/">Privacy policy</a> <a href="/terms/">Terms of use</a> <a href="/accessibility/">Accessibility</a> <a href="/sitemap/">Site map</a></p>
<p class="copyright">Copyright 2026 Planet Media Group. All rights reserved.</p>
</footer>
</body>
</html>
""" % dict(title=title, nav=nav, most=most, body=body, byline=byline)


TB_TOP = ["Home", "Articles", "Tutorials", "Reviews", "Podcast", "Newsletter", "Jobs",
          "Events", "About", "Write for us", "Sponsors", "RSS", "Linux", "Databases",
          "Security", "Cloud", "Hardware", "Programming", "DevOps", "Open Source",
          "Careers", "Archive"]

TB_COMMENTS = [
    ("dev_guy42", "Great write-up, thanks for sharing. Bookmarked for later."),
    ("lin", "We ran into something very similar last year. Would love a follow-up post with more details."),
    ("anonymous", "First! Also, your RSS feed seems to be broken on my reader again."),
]


def tb_page(title, author, paras):
    top = " | ".join('<a href="/%s">%s</a>' % (n.lower().replace(" ", "-"), n) for n in TB_TOP)
    body = "\n".join("<p>%s</p>" % p for p in paras)
    comments = "\n".join('<div class="comment"><span class="who">%s</span><p>%s</p></div>' % c
                         for c in TB_COMMENTS)
    return """<!doctype html>
<html>
<head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<title>%(title)s - TechBlog</title>
<link rel="alternate" type="application/rss+xml" href="/feed.xml">
<style>body{font-family:sans-serif} #wrapper{display:flex}</style>
</head>
<body class="blog single-post">
<div id="topbar">%(top)s</div>
<div id="masthead"><span class="site-title">TechBlog</span> <span class="site-description">Practical notes on software, systems and the tools we use every day</span></div>
<div id="wrapper">
<div id="content">
<article class="post">
<header>
<h1 class="entry-title">%(title)s</h1>
<div class="post-meta">By %(author)s</div>
</header>
<div class="entry-content">
%(body)s
</div>
<div class="tags">Tags: <a href="/tag/engineering">engineering</a> <a href="/tag/lessons">lessons</a> <a href="/tag/how-to">how-to</a></div>
</article>
<section class="comments">
<h3>3 comments</h3>
%(comments)s
<form class="reply"><textarea name="c">Leave a reply. Your email address will not be published.</textarea><button>Post comment</button></form>
</section>
</div>
<aside id="secondary" class="widget-area">
<h4>Categories</h4>
<ul><li>Linux (214)</li><li>Databases (98)</li><li>Security (121)</li><li>Cloud (87)</li><li>Hardware (45)</li><li>Programming (302)</li></ul>
<h4>About TechBlog</h4>
<p>TechBlog is written by a small group of engineers who like to explain how things really work. We do not take money for reviews, and every tutorial is tested before it is published. Opinions are our own and not those of our employers.</p>
<h4>Subscribe</h4>
<p>One email every Friday with the week's posts and a few links worth reading. No spam, unsubscribe at any time.</p>
</aside>
</div>
<div id="footer">
<p>Content licensed under Creative Commons Attribution 4.0 unless noted otherwise. Code samples are released under the MIT license. Hosted on servers powered by renewable energy. Built with a static site generator and a lot of coffee. Found a typo? Open an issue on our public tracker and we will fix it.</p>
<p>&copy; 2014-2026 TechBlog contributors. <a href="/privacy">Privacy</a> <a href="/imprint">Imprint</a> <a href="/contact">Contact</a></p>
</div>
</body>
</html>
""" % dict(title=title, author=author, top=top, body=body, comments=comments)


MW_MENU = ["Front page", "City", "Suburbs", "Transport", "Courts", "Business", "Sport",
           "Culture", "Weather", "Traffic", "Jobs", "Property", "Cars", "Dating",
           "Horoscopes", "Crosswords", "Contact", "Archive", "Tips", "Advertise"]


def mw_page(title, author, paras):
    menu = "<br>\n".join('<a href="/s/%s">%s</a>' % (n.lower().replace(" ", "-"), n) for n in MW_MENU)
    body = "\n".join('<p class="txt">%s</p>' % p for p in paras)
    return """<html>
<head>
<title>%(title)s -- Metro Wire</title>
<meta name="generator" content="NewsDesk 3.2">
</head>
<body bgcolor="#ffffff">
<table width="100%%" class="masthead"><tr><td><b>METRO WIRE</b> - the city's wire service - syndicated news for partner papers</td><td align="right">Updated every fifteen minutes</td></tr></table>
<table width="100%%"><tr>
<td valign="top" width="160" id="menu">
%(menu)s
</td>
<td valign="top" id="story">
<h2>%(title)s</h2>
<div class="author">By %(author)s</div>
<div class="body">
%(body)s
</div>
</td>
<td valign="top" width="200" class="ad-slot">
<div class="ad">ADVERTISEMENT</div>
<div class="ad">Cheap flights to the coast all winter long. Book now and save.</div>
<div class="ad">Local plumbers available around the clock. Call today for a free quote.</div>
</td>
</tr></table>
<div id="bottom"><small>Metro Wire stories may be republished by partner newspapers under the terms of their syndication agreement. All other rights reserved. Metro Wire is a member of the Regional Press Council and subscribes to its complaints procedure. Copyright 2026 Metro Wire Ltd.</small></div>
</body>
</html>
""" % dict(title=title, author=author, menu=menu, body=body)


HX_NAV = ["首页", "新闻", "国内", "国际", "社会", "财经", "股票", "科技", "手机", "数码",
          "汽车", "房产", "教育", "健康", "旅游", "美食", "体育", "娱乐", "文化", "读书",
          "视频", "图片", "专题", "评论"]

HX_HOT = ["今冬首场寒潮来袭，多地气温下降十度以上", "地铁三号线二期工程全线贯通",
          "秋季招聘会提供岗位超过两万个", "市博物馆推出夜间开放活动",
          "新能源汽车充电桩覆盖全部街道", "全民健身运动会开幕"]


def hx_page(title, paras):
    nav = "\n".join('<li><a href="/%d/">%s</a></li>' % (i, n) for i, n in enumerate(HX_NAV))
    hot = "\n".join('<li><a href="/hot/%d.html">%s</a></li>' % (i, t) for i, t in enumerate(HX_HOT))
    body = "\n".join("<p>%s</p>" % p for p in paras)
    return """<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>%(title)s_华夏资讯网</title>
<meta name="keywords" content="华夏资讯网,新闻,资讯">
</head>
<body>
<div class="top-bar">欢迎访问华夏资讯网 | <a href="/login">登录</a> | <a href="/reg">注册</a> | <a href="/app">下载客户端</a> | 设为首页 | 加入收藏</div>
<div class="header"><div class="logo">华夏资讯网</div><div class="slogan">权威资讯 第一时间</div></div>
<div class="nav"><ul>
%(nav)s
</ul></div>
<div class="main">
<div class="content" id="article">
<h1>%(title)s</h1>
<div class="info">来源：华夏资讯网 编辑：本网记者</div>
%(body)s
<div class="editor">责任编辑：李明</div>
</div>
<div class="sidebar">
<h3>热点新闻</h3>
<ul>
%(hot)s
</ul>
<div class="ad">广告：品质家装 一站到位 免费上门量房设计</div>
</div>
</div>
<div class="footer">
<p><a href="/about">关于我们</a> | <a href="/contact">联系我们</a> | <a href="/ad">广告服务</a> | <a href="/jobs">招聘信息</a> | <a href="/law">法律声明</a> | <a href="/map">网站地图</a></p>
<p>本网站所刊登的各种新闻、信息和各种专题专栏资料，均为华夏资讯网版权所有，未经协议授权，禁止下载使用。违法和不良信息举报电话：010-12345678。</p>
<p>Copyright © 2026 华夏资讯网 版权所有 京ICP备00000000号</p>
</div>
</body>
</html>
""" % dict(title=title, nav=nav, hot=hot, body=body)


JN_NAV = ["江南首页", "本地新闻", "时政要闻", "经济观察", "民生热线", "教育频道", "文化旅游",
          "体育天地", "健康生活", "房产家居", "汽车时代", "图片新闻", "视频直播", "数字报",
          "网上投稿", "读者来信", "便民服务", "天气预报", "招聘求职", "分类广告"]


def jn_page(title, paras, meta_style):
    """GBK page.  meta_style 'http-equiv' or 'charset'."""
    menu = " ".join('<a href="/c/%d.htm">%s</a>' % (i, n) for i, n in enumerate(JN_NAV))
    body = "\n".join("<p>　　%s</p>" % p for p in paras)
    if meta_style == "charset":
        meta = '<meta charset="gbk">'
    else:
        meta = '<meta http-equiv="Content-Type" content="text/html; charset=gbk">'
    return """<html>
<head>
%(meta)s
<title>%(title)s - 江南日报</title>
</head>
<body>
<table class="topnav" width="960"><tr><td>%(menu)s</td></tr></table>
<div id="banner">江南日报 · 江南网　　主办单位：江南日报社　　今日天气：多云转晴</div>
<div id="mainbox">
<div class="arttitle">%(title)s</div>
<div class="artinfo">发布时间：2026年11月20日　来源：江南日报</div>
<div class="artbody">
%(body)s
</div>
<div class="artfoot">【打印本页】【关闭窗口】【我要纠错】</div>
</div>
<div class="links">相关链接：<a href="/c/1.htm">本地新闻</a> <a href="/c/4.htm">民生热线</a> <a href="/c/6.htm">文化旅游</a></div>
<div id="copyright">江南日报社版权所有　未经书面授权不得转载、摘编或利用其它方式使用本网站内容。本站联系电话：0571-00000000　互联网新闻信息服务许可证编号：00000000000000　浙ICP备00000000号</div>
</body>
</html>
""" % dict(meta=meta, title=title, menu=menu, body=body)


# ---------------------------------------------------------------------------
# Light edits (the planted near-duplicates).
# ---------------------------------------------------------------------------

def meteor_edited():
    """An updated forecast: three small edits, 7 tokens of ~500 (1.4%).

    Measured with the project's simhash (common/fingerprint/docfp.c, defaults): the
    distance to the original is 1 with single-word features, 2 with word
    2-shingles, but 5 with 3-shingles (> k = 3): SimHash over long
    shingles is fragile to scattered edits."""
    t, a, ps = E["meteor"]
    ps = list(ps)
    ps[2] = ps[2].replace("about 120 meteors per hour", "about 150 meteors per hour")
    ps[3] = ps[3].replace("thermos of something hot", "thermos of something warm")
    ps[4] = ps[4].replace("Looking about halfway up", "Looking about two thirds of the way up")
    assert ps != E["meteor"][2] and sum(x != y for x, y in zip(ps, E["meteor"][2])) == 3
    return t, a, ps


def cache_edited():
    """One sentence (7 words) added to the ~565-word post (1.2%).
    Distance 0 / 0 / 2 with 1- / 2- / 3-word shingles."""
    t, a, ps = E["cache"]
    ps = list(ps)
    ps[6] = ps[6] + " Update: the nightly builds use it too."
    return t, a, ps


# ---------------------------------------------------------------------------
# WARC writing.
# ---------------------------------------------------------------------------

CRLF = b"\r\n"


def rec_id(name):
    return "<urn:uuid:%s>" % uuid.uuid5(NS, name)


def sha1_b32(data):
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode("ascii")


def warc_record(version, headers, block):
    """headers: list of (name, value) without Content-Length."""
    lines = [("WARC/%s" % version).encode("ascii")]
    for k, v in headers:
        lines.append(("%s: %s" % (k, v)).encode("utf-8"))
    lines.append(("Content-Length: %d" % len(block)).encode("ascii"))
    return CRLF.join(lines) + CRLF + CRLF + block + CRLF + CRLF


def http_response(status, headers, body, chunked=False, gzipped=False):
    payload = body
    hs = list(headers)
    if gzipped:
        payload = gzip.compress(body, compresslevel=9, mtime=0)
        hs.append(("Content-Encoding", "gzip"))
        hs.append(("Vary", "Accept-Encoding"))
    if chunked:
        out = b""
        pos = 0
        sizes = [700, 1500, 333]
        i = 0
        while pos < len(payload):
            n = sizes[i % len(sizes)]
            piece = payload[pos:pos + n]
            out += b"%x\r\n" % len(piece) + piece + CRLF
            pos += n
            i += 1
        out += b"0\r\n\r\n"
        hs.append(("Transfer-Encoding", "chunked"))
        payload = out
    else:
        hs.append(("Content-Length", str(len(payload))))
    head = ("HTTP/1.1 %s\r\n" % status).encode("ascii")
    for k, v in hs:
        head += ("%s: %s\r\n" % (k, v)).encode("ascii")
    return head + CRLF + payload, payload


class Warc:
    def __init__(self, name, version, gz, base_date, frac=False):
        self.name = name
        self.version = version
        self.gz = gz
        self.members = []      # bytes of each record (compressed if gz)
        self.n = 0
        self.base = base_date  # (y, mo, d, h, mi, s)
        self.frac = frac
        self.pages = []        # (url, kind) of every response record
        self.add_warcinfo()

    def date(self):
        y, mo, d, h, mi, s = self.base
        t = h * 3600 + mi * 60 + s + self.n * 7
        hh, mm, ss = t // 3600, t // 60 % 60, t % 60
        if self.frac:
            us = RNG.randrange(1000000)
            return "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ" % (y, mo, d, hh, mm, ss, us)
        return "%04d-%02d-%02dT%02d:%02d:%02dZ" % (y, mo, d, hh, mm, ss)

    def http_date(self):
        y, mo, d, h, mi, s = self.base
        t = h * 3600 + mi * 60 + s + self.n * 7
        return "Fri, %02d Nov %04d %02d:%02d:%02d GMT" % (d, y, t // 3600, t // 60 % 60, t % 60)

    def put(self, raw):
        if self.gz:
            raw = gzip.compress(raw, compresslevel=6, mtime=0)
        self.members.append(raw)
        self.n += 1

    def add_warcinfo(self):
        block = ("software: make_corpus.py (near-duplicate detector sample corpus)\r\n"
                 "format: WARC File Format %s\r\n"
                 "conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-%s/\r\n"
                 "isPartOf: ndd-sample-corpus\r\n"
                 "description: synthetic pages with planted duplicates, see README.md\r\n"
                 "robots: obey\r\n" % (self.version, self.version)).encode("ascii")
        self.put(warc_record(self.version, [
            ("WARC-Type", "warcinfo"),
            ("WARC-Date", self.date()),
            ("WARC-Filename", self.name),
            ("WARC-Record-ID", rec_id(self.name + "#warcinfo")),
            ("Content-Type", "application/warc-fields"),
        ], block))

    def request(self, url, concurrent):
        host = url.split("/")[2]
        path = "/" + url.split("/", 3)[3]
        block = ("GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: ndd-sample-crawler/1.0\r\n"
                 "Accept: text/html,*/*;q=0.8\r\nAccept-Encoding: gzip\r\n\r\n" % (path, host)).encode("ascii")
        self.put(warc_record(self.version, [
            ("WARC-Type", "request"),
            ("WARC-Target-URI", url),
            ("WARC-Date", self.date()),
            ("WARC-Record-ID", rec_id(url + "#request")),
            ("WARC-Concurrent-To", concurrent),
            ("Content-Type", "application/http; msgtype=request"),
        ], block))

    def response(self, url, body, ctype="text/html; charset=utf-8", status="200 OK",
                 extra=(), chunked=False, gzipped=False, with_request=False, kind="page",
                 truncate=False):
        headers = [("Date", self.http_date()), ("Server", "nginx/1.22.1"), ("Content-Type", ctype)]
        headers += list(extra)
        block, payload = http_response(status, headers, body, chunked, gzipped)
        rid = rec_id(url + "#response")
        raw = warc_record(self.version, [
            ("WARC-Type", "response"),
            ("WARC-Target-URI", url),
            ("WARC-Date", self.date()),
            ("WARC-Record-ID", rid),
            ("WARC-IP-Address", "192.0.2.%d" % (10 + len(self.pages))),
            ("Content-Type", "application/http; msgtype=response"),
            ("WARC-Payload-Digest", sha1_b32(body)),
        ], block)
        self.pages.append((url, kind))
        if truncate:
            # The record's Content-Length promises more than is present:
            # compress the whole record, keep only the first 55% of the
            # gzip member (an interrupted download).  Must be the last.
            assert self.gz
            z = gzip.compress(raw, compresslevel=6, mtime=0)
            self.members.append(z[:len(z) * 55 // 100])
            self.n += 1
            self.truncated = True
            return rid
        self.put(raw)
        if with_request:
            self.request(url, rid)
        return rid

    def revisit(self, url, refers_url, refers_date, body):
        headers = [("Date", self.http_date()), ("Server", "nginx/1.22.1"),
                   ("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body)))]
        block = b"HTTP/1.1 200 OK\r\n" + b"".join(("%s: %s\r\n" % kv).encode("ascii") for kv in headers) + CRLF
        self.put(warc_record(self.version, [
            ("WARC-Type", "revisit"),
            ("WARC-Target-URI", url),
            ("WARC-Date", self.date()),
            ("WARC-Record-ID", rec_id(url + "#revisit")),
            ("WARC-Profile", "http://netpreserve.org/warc/%s/revisit/identical-payload-digest" % self.version),
            ("WARC-Refers-To-Target-URI", refers_url),
            ("WARC-Refers-To-Date", refers_date),
            ("WARC-Payload-Digest", sha1_b32(body)),
            ("Content-Type", "application/http; msgtype=response"),
        ], block))
        self.pages.append((url, "revisit"))

    def metadata(self, url, concurrent):
        block = ("via: http://daily-planet.example/\r\nhopsFromSeed: L\r\n"
                 "fetchTimeMs: 143\r\noutlink: http://daily-planet.example/about/ A\r\n").encode("ascii")
        self.put(warc_record(self.version, [
            ("WARC-Type", "metadata"),
            ("WARC-Target-URI", url),
            ("WARC-Date", self.date()),
            ("WARC-Record-ID", rec_id(url + "#metadata")),
            ("WARC-Concurrent-To", concurrent),
            ("Content-Type", "application/warc-fields"),
        ], block))

    def write(self, outdir):
        with open(os.path.join(outdir, self.name), "wb") as f:
            for m in self.members:
                f.write(m)


def png_bytes(w=16, h=16):
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    raw = b""
    for y in range(h):
        raw += b"\x00" + bytes((x * 16 + RNG.randrange(8)) & 0xff for x in range(w) for _ in range(3))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


PDF = (b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
       b"2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n"
       b"3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >> endobj\n"
       b"4 0 obj << /Length 58 >> stream\nBT /F1 12 Tf 72 720 Td (Annual report 2026: river valley) Tj ET\n"
       b"endstream endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")

CSS = (b"body{margin:0;font:16px/1.5 Georgia,serif;color:#222}\n"
       b".site-header{background:#0b3d91;color:#fff;padding:12px}\n"
       b".main-nav li{display:inline-block;margin:0 6px}\n"
       b".sidebar{width:300px;float:right}\n.cookie-banner{position:fixed;bottom:0}\n")


def u8(s):
    return s.encode("utf-8")


# ---------------------------------------------------------------------------
# The plan.
# ---------------------------------------------------------------------------

DP = "http://daily-planet.example/2026/11/"
MIRROR = "http://mirror.daily-planet.example/2026/11/"
TB = "http://techblog.example/posts/"
MW = "http://metro-wire.example/story/"
HX = "http://www.huaxia-news.example/2026/1120/"
JN = "http://www.jiangnan-daily.example/news/2026-11/"


def build():
    clusters = []   # list of lists of URLs

    # --- news-a.warc.gz: WARC/1.0, one gzip member per record, Daily Planet
    a = Warc("news-a.warc.gz", "1.0", True, (2026, 11, 20, 3, 0, 0))
    flood_page = u8(dp_page(*E["flood"]))
    rid = a.response(DP + "article-1.html", flood_page, with_request=True)
    a.metadata(DP + "article-1.html", rid)
    a.response(DP + "article-2.html", u8(dp_page(*E["bakery"])), with_request=True)
    a.response(DP + "article-3.html", u8(dp_page(*E["meteor"])))
    a.response(DP + "article-3-updated.html", u8(dp_page(*meteor_edited())))
    a.response(DP + "article-4.html", u8(dp_page(*E["robots"])))
    rid6 = a.response(DP + "article-5.html", u8(dp_page(*E["vines"])))
    a.response(DP + "article-6.html", u8(dp_page(*E["library"])))
    # short pages on the same template, different texts (< 40 words each)
    a.response("http://daily-planet.example/contact/", u8(dp_page("Contact the newsroom", None, [
        "Send news tips to the desk at 200 Harbour Street or call us between nine and five on weekdays."])))
    a.response("http://daily-planet.example/about/", u8(dp_page("About us", None, [
        "Founded in 1921, the paper has covered the valley for more than a century."])))
    a.response("http://daily-planet.example/search/no-results.html", u8(dp_page("Search", None, [
        "Sorry, nothing matched your search. Try fewer or different keywords."])))
    notfound = u8(dp_page("Page not found", None, [
        "The page you requested has moved or no longer exists. Please check the address or return to our home page."]))
    a.response(DP + "old-story.html", notfound, status="404 Not Found")
    a.response("http://daily-planet.example/static/planet.css", CSS, ctype="text/css")
    a.response("http://daily-planet.example/static/logo.png", png_bytes(), ctype="image/png")
    # a TechBlog post also lives in this file: the one-sentence-added copy
    a.response(TB + "remote-build-cache-update.html", u8(tb_page(*cache_edited())))

    # --- news-b.warc: WARC/1.1, plain, fractional-second dates, TechBlog
    b = Warc("news-b.warc", "1.1", False, (2026, 11, 20, 4, 0, 0), frac=True)
    b.response(MIRROR + "article-1.html", flood_page, with_request=True)        # exact copy
    b.response(TB + "heritage-grain-bakers.html", u8(tb_page(*E["bakery"])))     # content dup
    b.response(TB + "remote-build-cache.html", u8(tb_page(*E["cache"])), with_request=True)
    b.response(TB + "tuesday-memory-leak.html", u8(tb_page(*E["leak"])))
    b.response(TB + "bloom-filters.html", u8(tb_page(*E["bloom"])))
    b.response(TB + "postgres-migration.html", u8(tb_page(*E["postgres"])))
    b.response(TB + "split-keyboard.html", u8(tb_page(*E["keyboard"])))
    b.response(DP + "missing-page.html", notfound, status="404 Not Found")       # same 404 bytes
    b.response("http://techblog.example/old-feed", b'<html><body><a href="http://techblog.example/feed.xml">Moved</a></body></html>',
               status="301 Moved Permanently",
               extra=[("Location", "http://techblog.example/feed.xml")])
    b.response("http://techblog.example/files/annual-report.pdf", PDF, ctype="application/pdf")

    # --- cn.warc.gz: Chinese pages, UTF-8 (华夏资讯网) and GBK (江南日报)
    c = Warc("cn.warc.gz", "1.0", True, (2026, 11, 20, 5, 0, 0))
    for key, n in (("waste", 1), ("village", 2), ("tea", 3), ("ai", 4)):
        c.response(HX + "article-%d.html" % n, u8(hx_page(*C[key])))
    # GBK copy of C1: charset in the HTTP header and in <meta http-equiv>
    c.response(JN + "content_101.htm", jn_page(*C["waste"], meta_style="http-equiv").encode("gbk"),
               ctype="text/html; charset=gbk")
    # GBK copy of C2: charset only in <meta charset="gbk">
    c.response(JN + "content_102.htm", jn_page(*C["village"], meta_style="charset").encode("gbk"),
               ctype="text/html")
    c.response(JN + "content_103.htm", jn_page(*C["papercut"], meta_style="http-equiv").encode("gbk"),
               ctype="text/html; charset=gbk")

    # --- mixed.warc.gz: transfer/content encodings, revisit, truncated end
    m = Warc("mixed.warc.gz", "1.0", True, (2026, 11, 20, 6, 0, 0))
    m.response(MW + "heritage-grain-bakers.html", u8(mw_page(*E["bakery"])), chunked=True)
    m.response(MW + "tuesday-memory-leak.html", u8(mw_page(*E["leak"])), gzipped=True)
    m.response(MW + "night-buses-return.html", u8(mw_page(*E["buses"])), chunked=True, gzipped=True)
    m.revisit("http://www.daily-planet.example/2026/11/article-5.html", DP + "article-5.html",
              "2026-11-20T03:00:49Z", u8(dp_page(*E["vines"])))
    m.response("http://metro-wire.example/img/pixel.png", png_bytes(4, 4), ctype="image/png")
    m.response("http://archive.daily-planet.example/2026/11/article-1.html", flood_page,
               truncate=True, kind="truncated")

    clusters = [
        [DP + "article-1.html", MIRROR + "article-1.html"],
        [DP + "article-2.html", TB + "heritage-grain-bakers.html", MW + "heritage-grain-bakers.html"],
        [DP + "article-3.html", DP + "article-3-updated.html"],
        [TB + "remote-build-cache.html", TB + "remote-build-cache-update.html"],
        [TB + "tuesday-memory-leak.html", MW + "tuesday-memory-leak.html"],
        [HX + "article-1.html", JN + "content_101.htm"],
        [HX + "article-2.html", JN + "content_102.htm"],
    ]
    return [a, b, c, m], clusters


def check(warcs, clusters):
    urls = [u for w in warcs for u, _ in w.pages]
    assert len(urls) == len(set(urls)), "duplicate URL in corpus"
    for u in urls:
        assert "," not in u and '"' not in u and " " not in u
    present = set(urls)
    seen = set()
    for cl in clusters:
        for u in cl:
            assert u in present, u
            assert u not in seen, u
            seen.add(u)
    for key, (t, a, ps) in E.items():
        n = sum(len(p.split()) for p in ps)
        assert 250 <= n <= 600, (key, n)
    for key, (t, ps) in C.items():
        n = sum(len(p) for p in ps)
        assert 400 <= n <= 900, (key, n)
    for key in ("waste", "village", "papercut"):
        jn_page(*C[key], meta_style="charset").encode("gbk")   # encodable
    # light edits stay under 3% of tokens
    for orig, edited in ((E["meteor"], meteor_edited()), (E["cache"], cache_edited())):
        o = " ".join(orig[2]).split()
        e = " ".join(edited[2]).split()
        sm = difflib.SequenceMatcher(None, o, e, autojunk=False)
        diff = sum(max(i2 - i1, j2 - j1) for op, i1, i2, j1, j2 in sm.get_opcodes() if op != "equal")
        assert 0 < diff < 0.03 * len(o), diff


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(outdir, exist_ok=True)
    warcs, clusters = build()
    check(warcs, clusters)
    for w in warcs:
        w.write(outdir)
    lines = sorted(" ".join(sorted(cl)) for cl in clusters)
    with open(os.path.join(outdir, "expected_clusters.txt"), "w", encoding="ascii", newline="\n") as f:
        f.write("# Ground truth for corpus-samples/*.warc*: one duplicate cluster per line, "
                "its URLs sorted (C locale) and separated by single spaces; lines sorted; "
                "only clusters of 2+ pages. Written by make_corpus.py from its plan.\n")
        for ln in lines:
            f.write(ln + "\n")


if __name__ == "__main__":
    main()
